"""InterBBS leagues: one daily challenge across independent boards (docs/league.md).

Every board that joins a league signs each counted daily-challenge attempt of its callers
(the deal, the moves, the score) with its own Ed25519 key; every board that receives one
checks the signature *and replays the moves with its own engine*, so a score another board
sends is believed only because it reproduces.  Results travel over HTTPS between servers
(:mod:`door.league.http`, :mod:`door.league.sync`) or in packet files a mailer carries
(:mod:`door.league.packets`); either way they land in the store's league tables
(:mod:`door.store.league`), from which the ladders are read.

=================  ==============================================================
keys.py            the board's key pair, kept in its data folder
results.py         one signed result: its canonical bytes, signing, parsing with bounds
roster.py          a hub's signed list of member boards and their public keys
verify.py          what a receiving board checks before it stores a result
intake.py          verify then store, the one path every transport takes
sync.py            push and pull with peers or a hub, with retry and back-off
http.py            the /league routes of the web listener
packets.py         export and import of packet files
=================  ==============================================================
"""

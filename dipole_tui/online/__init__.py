"""Online play: a server that referees rooms with the rules core and keeps every move in
sqlite before it is relayed, and the client the app's remote seat talks through."""

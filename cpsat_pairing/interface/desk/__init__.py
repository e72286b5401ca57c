"""The arbiter's desk: the engine as a page in the browser, served on this computer.

`app` holds the routes (Flask), `guard` refuses requests from anywhere but this
computer, `runs` solves a round off the request so that a long one shows its progress
and can be cancelled.  The routes call the same applications as the command line and the
service; the pages are views/desk.py and its templates."""

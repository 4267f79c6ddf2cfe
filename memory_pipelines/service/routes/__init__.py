"""One router per kind of resource; service/app.py includes them all."""

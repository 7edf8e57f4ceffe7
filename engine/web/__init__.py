"""The local web app: ``python -m engine web`` (docs/web.md).

A board editor and analysis page for practice and study, and the projection
page of a simultaneous-Scrabble event, served on loopback by FastAPI/uvicorn.

Modules:

* :mod:`~engine.web.api` — the JSON answers, framework-free (position, moves
  with equity, the word checker, the director's round); every input is
  validated here before the engine sees it;
* :mod:`~engine.web.app` — the FastAPI application: routes, error handling,
  rate limit, request size limit, static files;
* :mod:`~engine.web.cli` — the ``web`` subcommand (a plug-in of :mod:`engine.cli.main`);
* ``static/`` — the page (plain HTML, CSS and JavaScript, no build step).
"""

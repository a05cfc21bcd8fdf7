"""Lastro's Python client: typed methods for every operation of the API (see README.md).

    import lastro
    client = lastro.Client("http://127.0.0.1:8080", api_key)
    for fund in client.funds_search(q="credito").iter_items():
        print(fund["cnpj"], fund["name"])

The answers' types (lastro.FundsSearchRow, ...) and the methods are generated from the
server's OpenAPI document (lastro/_generated.py); the transport is lastro/client.py.
"""

from ._generated import *  # noqa: F403 (the generated types and Operations, listed in its __all__)
from ._generated import __all__ as _generated_names
from .client import Client
from .response import Credits, LastroError, Page, RateLimit, RawResponse, Response

__all__ = ["Client", "Credits", "LastroError", "Page", "RateLimit", "RawResponse", "Response", *_generated_names]

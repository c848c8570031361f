"""The address page's widgets: the page, and one module per tab."""

from explorer.views.address.page import AddressView

__all__ = ["AddressView"]

"""Search: Japanese terms found inside compounds (``japanese``), and figures kept out of the search plugin's
parser while it indexes a page (``skip``)."""

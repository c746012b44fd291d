"""The course around every page: the block map under the title with reading time and the other tracks' pages
(``map``), and the glossary's terms explained where a page first uses them (``glossary``)."""

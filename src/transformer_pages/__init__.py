"""The facts that exist for one page of the site (what its prose and panels show), one module per page."""

"""Tabula's controller: the rules engine, the referee and the service around them."""

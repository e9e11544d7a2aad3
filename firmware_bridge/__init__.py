"""Host side of the serial link to Tabula's sensor board."""

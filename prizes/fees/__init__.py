"""Entry fees, payments and the cash summary (the pot): the Startgeld page, list and exports."""

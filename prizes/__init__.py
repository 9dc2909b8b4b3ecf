"""The prize-giving: entry fees and payments (`fees`), the prize plan and prize list (`plan`).

Who wins what is a rule (`rules.payout`); this app stores the money and the plan and registers
its exports, archive section and demo data with scoring's registries in `apps.ready()`."""

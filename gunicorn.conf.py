"""gunicorn reads this file from the working directory (the checkout) wherever it is started:
`make serve-prod`, deploy/*.service, the benches and the production smoke."""

# gunicorn 24+ opens a control socket at one path per user ($HOME/.gunicorn/gunicorn.ctl).
# A server runs two gunicorns (deploy/romme.service and romme-readers.service), CI two app
# servers: the second one fails to bind it and logs an error. We do not use gunicornc.
control_socket_disable = True

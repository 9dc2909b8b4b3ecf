from django.core.exceptions import ValidationError


def add_validation_errors(form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form: by field where the form has it."""
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)

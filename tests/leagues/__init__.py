"""League play: services, permissions, pages, exports."""

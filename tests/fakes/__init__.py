"""Protocol-faithful local servers on 127.0.0.1 that replay documented API payloads."""

"""The domain core: plain, typed Python that knows no driver, HTTP or LLM."""

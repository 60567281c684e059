"""litellm, imported on first use only: it takes seconds to import."""

from __future__ import annotations

import functools
import os


@functools.cache
def load_litellm():
    # Same switches as config.settings, for scripts that use the gateway without Django setup.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import litellm

    litellm.suppress_debug_info = True
    litellm.drop_params = True  # a parameter the model lacks (temperature on o-series) is dropped
    return litellm

package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.RdmaException;

/**
 * The verbs provider cannot run on this machine: the libraries are missing, the kernel has no RDMA support, there is
 * no device, or its port is down. The message says which, and what to install or configure.
 */
public final class VerbsUnavailableException extends RdmaException {

    private static final long serialVersionUID = 1L;

    VerbsUnavailableException(final String message) {
        super(message);
    }
}

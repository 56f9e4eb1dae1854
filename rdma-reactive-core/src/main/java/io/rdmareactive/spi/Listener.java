package io.rdmareactive.spi;

import java.time.Duration;

/** Listens for connect requests at an address. Close it to stop listening; established connections stay. */
public interface Listener extends AutoCloseable {

    /** @return the address it listens at, in the provider's form */
    String address();

    /**
     * Waits for the next connect request.
     *
     * @param timeout how long to wait; {@link Duration#ZERO} to only check
     * @return the request, or null if none came in time
     */
    ConnectRequest accept(Duration timeout);

    /** Stops listening and releases the address. Idempotent. */
    @Override
    void close();
}

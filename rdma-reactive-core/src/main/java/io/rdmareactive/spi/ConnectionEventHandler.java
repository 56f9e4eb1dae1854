package io.rdmareactive.spi;

/** Receives connection events from {@link RdmaDevice#pollEvents(ConnectionEventHandler, int)}. */
@FunctionalInterface
public interface ConnectionEventHandler {

    /** @param event what happened */
    void onEvent(ConnectionEvent event);
}

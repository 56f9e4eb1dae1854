package io.rdmareactive.micronaut;

import io.micronaut.messaging.exceptions.MessageListenerException;
import java.util.Optional;

/** A listener method failed on a message: which bean, which channel, which message, and why. */
public final class RdmaListenerException extends MessageListenerException {

    private static final long serialVersionUID = 1L;

    private final transient Object listener;
    private final String channel;
    private final transient Object body;

    /**
     * @param listener the bean whose method failed
     * @param channel  the channel's name
     * @param body     the message body, or null when the method takes the whole stream
     * @param cause    what the method threw or signalled
     */
    public RdmaListenerException(final Object listener, final String channel, final Object body, final Throwable cause) {
        super("the listener of channel '" + channel + "' failed: " + cause, cause);
        this.listener = listener;
        this.channel = channel;
        this.body = body;
    }

    /** @return the bean whose method failed */
    public Object listener() {
        return listener;
    }

    /** @return the channel's name */
    public String channel() {
        return channel;
    }

    /** @return the message the method failed on, if it takes messages one at a time */
    public Optional<Object> body() {
        return Optional.ofNullable(body);
    }
}

package io.rdmareactive.micronaut;

import jakarta.inject.Singleton;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The exception handler of listeners that have none of their own: it logs each failure at ERROR with the channel and
 * the message. Replace it with a bean annotated {@code @Replaces(DefaultRdmaListenerExceptionHandler.class)}.
 */
@Singleton
public class DefaultRdmaListenerExceptionHandler implements RdmaListenerExceptionHandler {

    private static final Logger LOG = Loggers.getLogger(DefaultRdmaListenerExceptionHandler.class);

    @Override
    public void handle(final RdmaListenerException exception) {
        LOG.error("RDMA listener {} failed on channel '{}' with message {}",
            exception.listener().getClass().getName(), exception.channel(), exception.body().orElse("(the stream)"),
            exception);
    }
}

package io.rdmareactive.micronaut;

import io.micronaut.messaging.annotation.MessageListener;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean whose {@link RdmaChannel} methods serve the streams that {@link RdmaClient}s open. The bean's
 * channels are served by the server named {@link #server()} ({@code rdma.servers.<name>.*}), which binds at startup,
 * before any client connects, and closes at shutdown, after the clients have drained.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@MessageListener
public @interface RdmaListener {

    /** @return the server ({@code rdma.servers.<name>}) that serves this bean's channels */
    String server() default "default";

    /**
     * @return how many messages of one channel stream this bean's methods process at once (1: one at a time, in
     * order); a channel's own {@link RdmaChannel#concurrency()} wins when set. Calls that carry one message each
     * (fire-and-forget, request/response, request/stream) have a stream each and run concurrently, up to the
     * client connection's request streams.
     */
    int concurrency() default 1;
}

package io.rdmareactive.micronaut;

import io.micronaut.context.annotation.AliasFor;
import io.micronaut.context.annotation.Executable;
import io.micronaut.messaging.annotation.MessageMapping;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the channel a method serves (on an {@link RdmaListener}) or calls (on an {@link RdmaClient}). A client's
 * call opens a stream whose first message carries the channel's name; the listener's server routes the stream to the
 * method with the same name.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@MessageMapping
@Executable(processOnStartup = true)
public @interface RdmaChannel {

    /** @return the channel's name (at most 255 bytes of UTF-8) */
    @AliasFor(annotation = MessageMapping.class, member = "value")
    String value();

    /**
     * @return on a listener: messages of one channel stream processed at once; 0 takes the listener's
     * {@link RdmaListener#concurrency()}. A call holds its place until the publisher it returned completes.
     */
    int concurrency() default 0;

    /**
     * @return on a listener: how many messages of a channel stream are taken off the wire ahead of processing (0: the
     * same as the concurrency). Only this queue and the calls in progress request messages, so the client's producer
     * is never more than {@code 2 × prefetch + concurrency} messages ahead of the completed calls.
     */
    int prefetch() default 0;
}

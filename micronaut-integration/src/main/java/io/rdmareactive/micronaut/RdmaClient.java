package io.rdmareactive.micronaut;

import io.micronaut.aop.Introduction;
import io.micronaut.context.annotation.Type;
import io.rdmareactive.micronaut.internal.RdmaClientAdvice;
import jakarta.inject.Singleton;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An interface whose {@link RdmaChannel} methods call a remote {@link RdmaListener} over the client connection
 * {@code rdma.clients.<value>.*}. What a method does follows from its signature:
 * <ul>
 *   <li>returns {@code void}, {@code Mono<Void>} or {@code Publisher<Void>}, and its body is one value:
 *       fire-and-forget (completes once the message is in the send ring);</li>
 *   <li>returns {@code Mono<T>} (or a plain {@code T}, which blocks): request/response, failing with a
 *       {@link java.util.concurrent.TimeoutException} after {@code rdma.clients.<name>.request-timeout};</li>
 *   <li>returns {@code Flux<T>}, body one value: request/stream;</li>
 *   <li>its body is a {@code Publisher<T>} (a {@code Flux}): a channel whose elements are sent as the listener's
 *       demand (credit) allows; returning {@code Mono<Void>} completes when the listener has processed them all,
 *       returning {@code Flux<R>} gives the listener's answers.</li>
 * </ul>
 * The body is the one parameter without an annotation (or the one with {@code @MessageBody});
 * {@code @MessageHeader} parameters travel with the stream's first message. Each call opens a stream; a connection
 * has {@code (streams - 2) / 2} request streams, and further calls wait for one, in order. Calls wait for the
 * connection too (at most {@code connect-timeout}); one in flight when the connection drops fails and is not repeated.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Introduction
@Type(RdmaClientAdvice.class)
@Singleton
public @interface RdmaClient {

    /** @return the client connection ({@code rdma.clients.<name>}) the calls go through */
    String value() default "default";
}

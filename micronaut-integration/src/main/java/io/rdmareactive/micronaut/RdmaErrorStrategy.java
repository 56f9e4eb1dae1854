package io.rdmareactive.micronaut;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How an {@link RdmaListener}'s method failures are handled, on the bean or on one {@link RdmaChannel} method (the
 * method's wins). Without it: {@link ErrorStrategy#SKIP}.
 *
 * <p>A failure is an exception thrown by the method or an error signalled by the {@code Publisher} it returned. The
 * exception handler ({@link RdmaListenerExceptionHandler}) hears of each failure that is not retried any more. Only a
 * channel stream has a "next message": for fire-and-forget nothing goes back, and for request/response and
 * request/stream the client's call fails with the error's message whichever strategy applies (after the retries).
 * Retrying calls the method again: a method that returns a stream is retried only if it failed before it emitted
 * anything, so that the client never receives an answer twice.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface RdmaErrorStrategy {

    /** @return the strategy */
    ErrorStrategy value() default ErrorStrategy.SKIP;

    /** @return for {@link ErrorStrategy#RETRY}: how many more times the method is called */
    int retryAttempts() default 3;

    /** @return for {@link ErrorStrategy#RETRY}: the first delay, as a Micronaut duration ({@code 100ms}, {@code 1s}) */
    String retryDelay() default "100ms";

    /** @return for {@link ErrorStrategy#RETRY}: each further delay is the previous one times this */
    double multiplier() default 2.0;
}

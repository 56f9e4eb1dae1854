package io.rdmareactive.micronaut;

import io.micronaut.core.exceptions.ExceptionHandler;

/**
 * Hears of every listener failure that is not retried any more (see {@link RdmaErrorStrategy}). A listener bean that
 * implements this interface handles its own failures; the others go to the application's bean of this type (by
 * default one that logs them, which an application replaces with {@code @Replaces(DefaultRdmaListenerExceptionHandler.class)}).
 * It runs before the strategy goes on (skips or stops), on the thread the failure happened on: keep it short.
 */
@FunctionalInterface
public interface RdmaListenerExceptionHandler extends ExceptionHandler<RdmaListenerException> {
}

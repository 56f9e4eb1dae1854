package io.rdmareactive.micronaut.internal;

import io.micronaut.core.bind.ArgumentBinder;
import io.micronaut.core.bind.ArgumentBinderRegistry;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.inject.ExecutableMethod;
import io.rdmareactive.StreamKind;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.micronaut.ErrorStrategy;
import io.rdmareactive.micronaut.RdmaListenerException;
import io.rdmareactive.micronaut.RdmaListenerExceptionHandler;
import io.rdmareactive.micronaut.RdmaStreamInfo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * One {@code @RdmaChannel} method of a listener bean, ready to serve streams: how its arguments are bound, which
 * codecs read its body and write its answers, and how its failures are handled.
 *
 * <h2>Credit</h2>
 * A method that takes one body is called once per message. The stream's messages are taken off the wire
 * {@code prefetch} at a time (a bounded queue) and at most {@code concurrency} calls run at once, each holding its
 * place until the {@code Publisher} it returned completes; answers go back in the order of the messages. Only
 * what this chain requests is granted to the client as credit, so the client's producer is never more than
 * {@code 2 × prefetch + concurrency} messages ahead of the completed calls (the queue, the calls, and the credit in
 * flight), however fast it is.
 *
 * @param server      the server's name
 * @param channel     the channel's name
 * @param bean        the listener bean
 * @param method      the method
 * @param binders     the argument binders, one per parameter
 * @param takesStream whether the body parameter is a {@code Publisher} (the method is called once per stream)
 * @param blocking    whether the method returns a plain value (called on a bounded elastic thread, not the
 *                    connection's)
 * @param bodyCodec   decodes the body (a copying codec)
 * @param answerCodec encodes the answers, or null when the method answers nothing
 * @param concurrency calls at once per stream
 * @param prefetch    messages taken off the wire ahead of the calls
 * @param errors      the error strategy
 * @param handler     the exception handler
 */
record ListenerRoute(String server, String channel, Object bean, ExecutableMethod<Object, Object> method,
                     List<Binding> binders, boolean takesStream, boolean blocking, Codec<?> bodyCodec,
                     Codec<?> answerCodec, int concurrency, int prefetch, ErrorHandling errors,
                     RdmaListenerExceptionHandler handler) {

    /** A parameter and its binder. */
    record Binding(Argument<Object> argument, ArgumentBinder<Object, RdmaMessage> binder) {
    }

    /**
     * The error strategy of a method.
     *
     * @param strategy   what to do
     * @param attempts   for RETRY: further calls
     * @param delay      for RETRY: the first delay
     * @param multiplier for RETRY: the growth of the delay
     */
    record ErrorHandling(ErrorStrategy strategy, int attempts, Duration delay, double multiplier) {
    }

    static List<Binding> bindings(final ExecutableMethod<Object, Object> method,
                                  final ArgumentBinderRegistry<RdmaMessage> registry) {
        return java.util.Arrays.stream(method.getArguments())
            .map(argument -> {
                @SuppressWarnings("unchecked") final Argument<Object> typed = (Argument<Object>) argument;
                return new Binding(typed, registry.findArgumentBinder(typed).orElseThrow(() ->
                    new IllegalStateException("no binder for parameter " + argument.getName() + " of " + method)));
            })
            .toList();
    }

    /**
     * Serves one stream.
     *
     * @param kind   what the client asked for
     * @param bodies the stream's bodies, decoded
     * @param info   the stream
     * @return the answers (nothing for fire-and-forget)
     */
    Flux<Object> serve(final StreamKind kind, final Flux<Object> bodies, final RdmaStreamInfo info) {
        final Flux<Object> answers;
        if (takesStream) {
            answers = Flux.defer(() -> call(bodies, info))
                .onErrorResume(error -> failed(kind, null, error, true));
        } else {
            final Flux<Object> queued = bodies.publishOn(Schedulers.immediate(), prefetch);
            // a fire-and-forget message that arrived is handled even if its stream then fails (the connection ended
            // before the stream's end was read): the client was told it was sent
            answers = kind == StreamKind.FIRE_AND_FORGET
                ? queued.flatMapSequentialDelayError(body -> callOne(kind, body, info), concurrency, 1)
                : queued.flatMapSequential(body -> callOne(kind, body, info), concurrency, 1);
        }
        return switch (kind) {
            case FIRE_AND_FORGET -> answers.ignoreElements().flux();
            case REQUEST_RESPONSE -> answers.take(1);
            default -> answers;
        };
    }

    private Flux<Object> callOne(final StreamKind kind, final Object body, final RdmaStreamInfo info) {
        Flux<Object> call = Flux.defer(() -> call(body, info));
        if (errors.strategy() == ErrorStrategy.RETRY && errors.attempts() > 0) {
            final AtomicBoolean answered = new AtomicBoolean();
            call = call.doOnNext(answer -> answered.set(true))
                .retryWhen(Retry.from(signals -> signals.concatMap(signal -> {
                    if (answered.get() || signal.totalRetries() >= errors.attempts()) {
                        return Mono.error(signal.failure());
                    }
                    final double factor = Math.pow(errors.multiplier(), signal.totalRetries());
                    return Mono.delay(Duration.ofNanos((long) (errors.delay().toNanos() * factor)));
                })));
        }
        return call.onErrorResume(error -> failed(kind, body, error, errors.strategy() == ErrorStrategy.STOP));
    }

    private Flux<Object> failed(final StreamKind kind, final Object body, final Throwable error, final boolean stop) {
        final RdmaListenerException failure = error instanceof RdmaListenerException listenerException
            ? listenerException : new RdmaListenerException(bean, channel, body, error);
        try {
            handler.handle(failure);
        } catch (final RuntimeException handlerFailure) {
            failure.addSuppressed(handlerFailure);
        }
        if (kind == StreamKind.FIRE_AND_FORGET || (kind == StreamKind.CHANNEL && !stop)) {
            return Flux.empty();
        }
        return Flux.error(failure);
    }

    private Flux<Object> call(final Object body, final RdmaStreamInfo info) {
        final RdmaMessage message = new RdmaMessage(body, info);
        if (blocking) {
            return Mono.fromCallable(() -> invoke(message)).subscribeOn(Schedulers.boundedElastic()).flux();
        }
        return answersOf(invoke(message));
    }

    private Object invoke(final RdmaMessage message) {
        final Object[] arguments = new Object[binders.size()];
        for (int i = 0; i < arguments.length; i++) {
            final Binding binding = binders.get(i);
            final ArgumentConversionContext<Object> context = ConversionContext.of(binding.argument());
            final ArgumentBinder.BindingResult<Object> result = binding.binder().bind(context, message);
            final Object value = result.getValue().orElse(null);
            if (value == null && !binding.argument().isNullable()) {
                throw new IllegalArgumentException("nothing to bind to parameter '" + binding.argument().getName()
                    + "' of " + method.getDeclaringType().getSimpleName() + "." + method.getMethodName()
                    + (result.getConversionErrors().isEmpty() ? " (a header the client did not send?)"
                        : ": " + result.getConversionErrors()));
            }
            arguments[i] = value;
        }
        return method.invoke(bean, arguments);
    }

    @SuppressWarnings("unchecked")
    private static Flux<Object> answersOf(final Object result) {
        if (result == null) {
            return Flux.empty();
        }
        if (result instanceof Publisher<?> publisher) {
            return Flux.from((Publisher<Object>) publisher);
        }
        if (result instanceof CompletionStage<?> stage) {
            return Mono.fromCompletionStage((CompletionStage<Object>) stage).flux();
        }
        return Flux.just(result);
    }
}

package io.rdmareactive.micronaut.internal;

import io.micronaut.aop.MethodInterceptor;
import io.micronaut.aop.MethodInvocationContext;
import io.micronaut.core.type.Argument;
import io.micronaut.inject.ExecutableMethod;
import io.micronaut.messaging.annotation.MessageHeader;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.micronaut.RdmaChannel;
import io.rdmareactive.micronaut.RdmaClient;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Implements the methods of {@link RdmaClient} interfaces: each call opens a stream on the client's connection
 * whose first message carries the channel's name and the {@code @MessageHeader} arguments (see {@link Envelope}).
 * What kind of stream follows from the method's signature (see {@link RdmaClient}); the signature is read once per
 * method and checked then, with an error naming the method.
 */
@Singleton
public class RdmaClientAdvice implements MethodInterceptor<Object, Object> {

    private final RdmaClientConnections connections;
    private final CodecRegistry codecs;
    private final Map<ExecutableMethod<?, ?>, ClientCall> calls = new ConcurrentHashMap<>();

    public RdmaClientAdvice(final RdmaClientConnections connections, final CodecRegistry codecs) {
        this.connections = connections;
        this.codecs = codecs;
    }

    @Override
    public Object intercept(final MethodInvocationContext<Object, Object> context) {
        if (!context.hasStereotype(RdmaChannel.class)) {
            return context.proceed(); // a default method, or one of Object's
        }
        final ClientCall call = calls.computeIfAbsent(context.getExecutableMethod(), method -> ClientCall.of(context,
            codecs));
        final Object[] values = context.getParameterValues();
        final Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < call.headerNames.length; i++) {
            if (call.headerNames[i] != null && values[i] != null) {
                headers.put(call.headerNames[i], values[i].toString());
            }
        }
        final Object body = values[call.bodyIndex];
        if (body == null) {
            throw new IllegalArgumentException(call.where + ": the body must not be null");
        }
        final ReconnectingConnection connection = connections.connection(call.client);
        final Flux<Object> answers = connection.call(c -> call.open(c, body, headers));
        return call.adapt(answers);
    }

    /** The shape of one client method, worked out on its first call. */
    private static final class ClientCall {
        enum Kind { FIRE_AND_FORGET, REQUEST_RESPONSE, REQUEST_STREAM, CHANNEL }

        enum Shape { VOID, MONO, FLUX, PUBLISHER, COMPLETION_STAGE, VALUE }

        final String where;
        final String client;
        final String channel;
        final int bodyIndex;
        final String[] headerNames;
        final Codec<Object> bodyCodec;
        final Codec<Object> answerCodec;
        final Kind kind;
        final Shape shape;
        final boolean answering;

        private ClientCall(final String where, final String client, final String channel, final int bodyIndex,
                           final String[] headerNames, final Codec<Object> bodyCodec, final Codec<Object> answerCodec,
                           final Kind kind, final Shape shape, final boolean answering) {
            this.where = where;
            this.client = client;
            this.channel = channel;
            this.bodyIndex = bodyIndex;
            this.headerNames = headerNames;
            this.bodyCodec = bodyCodec;
            this.answerCodec = answerCodec;
            this.kind = kind;
            this.shape = shape;
            this.answering = answering;
        }

        @SuppressWarnings("unchecked")
        static ClientCall of(final MethodInvocationContext<Object, Object> context, final CodecRegistry codecs) {
            final String where = context.getDeclaringType().getName() + "." + context.getMethodName();
            final String client = context.stringValue(RdmaClient.class).orElse("default");
            final String channel = context.stringValue(RdmaChannel.class)
                .orElseThrow(() -> new IllegalStateException(where + ": @RdmaChannel needs a channel name"));
            final Argument<?>[] arguments = context.getArguments();
            final String[] headerNames = new String[arguments.length];
            int bodyIndex = -1;
            for (int i = 0; i < arguments.length; i++) {
                if (arguments[i].getAnnotationMetadata().hasAnnotation(MessageHeader.class)) {
                    final String name = arguments[i].getAnnotationMetadata().stringValue(MessageHeader.class)
                        .filter(value -> !value.isEmpty()).orElse(arguments[i].getName());
                    headerNames[i] = name;
                } else if (bodyIndex < 0) {
                    bodyIndex = i;
                } else {
                    throw new IllegalStateException(where + " has two body parameters (" + arguments[bodyIndex].getName()
                        + ", " + arguments[i].getName() + "); mark the others @MessageHeader");
                }
            }
            if (bodyIndex < 0) {
                throw new IllegalStateException(where + " has no body parameter");
            }
            final Argument<?> body = arguments[bodyIndex];
            final boolean streams = Publisher.class.isAssignableFrom(body.getType());
            final Class<?> bodyType = streams ? RdmaListenerProcessor.elementType(body, where) : body.getWrapperType();

            final Argument<Object> returnType = context.getReturnType().asArgument();
            final Class<?> raw = returnType.getType();
            final Shape shape;
            if (raw == void.class) {
                shape = Shape.VOID;
            } else if (Mono.class.isAssignableFrom(raw)) {
                shape = Shape.MONO;
            } else if (Flux.class.isAssignableFrom(raw)) {
                shape = Shape.FLUX;
            } else if (Publisher.class.isAssignableFrom(raw)) {
                shape = Shape.PUBLISHER;
            } else if (CompletionStage.class.isAssignableFrom(raw)) {
                shape = Shape.COMPLETION_STAGE;
            } else {
                shape = Shape.VALUE;
            }
            final Class<?> answerType = switch (shape) {
                case VOID -> Void.class;
                case VALUE -> returnType.getWrapperType();
                default -> RdmaListenerProcessor.elementType(returnType, where);
            };
            final boolean answers = answerType != Void.class;
            final Kind kind;
            if (streams) {
                kind = Kind.CHANNEL;
            } else if (!answers) {
                kind = Kind.FIRE_AND_FORGET;
            } else if (shape == Shape.FLUX || shape == Shape.PUBLISHER) {
                kind = Kind.REQUEST_STREAM;
            } else {
                kind = Kind.REQUEST_RESPONSE;
            }
            final Codec<Object> bodyCodec = (Codec<Object>) codecs.find(bodyType).orElseThrow(() ->
                new IllegalStateException(where + ": no codec for the body type " + bodyType.getName()));
            final Codec<Object> answerCodec = answers ? (Codec<Object>) codecs.find(answerType).orElseThrow(() ->
                new IllegalStateException(where + ": no codec for the answer type " + answerType.getName()))
                : (Codec<Object>) (Codec<?>) Codecs.BYTE_ARRAY; // never used: nothing is answered
            return new ClientCall(where, client, channel, bodyIndex, headerNames, bodyCodec, answerCodec, kind, shape, answers);
        }

        @SuppressWarnings("unchecked")
        Publisher<Object> open(final io.rdmareactive.Connection connection, final Object body,
                               final Map<String, String> headers) {
            final EnvelopeEncoder<Object> envelope = new EnvelopeEncoder<>(channel, headers, bodyCodec);
            return switch (kind) {
                case FIRE_AND_FORGET -> connection.fireAndForget(body, envelope).then(Mono.empty());
                case REQUEST_RESPONSE -> connection.requestResponse(body, envelope, answerCodec);
                case REQUEST_STREAM -> connection.requestStream(body, envelope, answerCodec);
                case CHANNEL -> connection.requestChannel((Publisher<Object>) body, envelope, answerCodec);
            };
        }

        Object adapt(final Flux<Object> answers) {
            return switch (shape) {
                case VOID -> {
                    answers.then().block();
                    yield null;
                }
                case MONO -> answering ? answers.next() : answers.then();
                case FLUX, PUBLISHER -> answers;
                case COMPLETION_STAGE -> answering ? answers.next().toFuture() : answers.then().toFuture();
                case VALUE -> answers.next().block();
            };
        }
    }
}

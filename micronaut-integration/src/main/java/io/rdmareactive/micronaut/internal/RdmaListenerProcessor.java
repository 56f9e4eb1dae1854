package io.rdmareactive.micronaut.internal;

import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.context.processor.ExecutableMethodProcessor;
import io.micronaut.core.annotation.AnnotationValue;
import io.micronaut.core.type.Argument;
import io.micronaut.core.util.StringUtils;
import io.micronaut.inject.BeanDefinition;
import io.micronaut.inject.ExecutableMethod;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.micronaut.ErrorStrategy;
import io.rdmareactive.micronaut.RdmaChannel;
import io.rdmareactive.micronaut.RdmaClient;
import io.rdmareactive.micronaut.RdmaErrorStrategy;
import io.rdmareactive.micronaut.RdmaListener;
import io.rdmareactive.micronaut.RdmaListenerExceptionHandler;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.reactivestreams.Publisher;

/**
 * Finds the {@code @RdmaChannel} methods of {@code @RdmaListener} beans at startup and turns each into a
 * {@link ListenerRoute}; methods of {@code @RdmaClient} interfaces carry the same annotation and are skipped. A method
 * that cannot be served (no body parameter, two of them, no codec for its body or answer type, a codec that
 * decodes to a view) fails startup with a message naming the method.
 */
@Singleton
@Requires(property = "rdma.enabled", notEquals = StringUtils.FALSE, defaultValue = StringUtils.TRUE)
public class RdmaListenerProcessor implements ExecutableMethodProcessor<RdmaChannel> {

    private final BeanContext beans;
    private final ListenerRoutes routes;
    private final RdmaArgumentBinders binders;
    private final CodecRegistry codecs;
    private RdmaListenerExceptionHandler defaultHandler;

    public RdmaListenerProcessor(final BeanContext beans, final ListenerRoutes routes, final RdmaArgumentBinders binders,
                                 final CodecRegistry codecs) {
        this.beans = beans;
        this.routes = routes;
        this.binders = binders;
        this.codecs = codecs;
    }

    /**
     * @return the application's exception handler: the bean of that type that is not itself a listener (listeners
     * that implement the interface handle only their own failures)
     */
    private synchronized RdmaListenerExceptionHandler defaultHandler() {
        if (defaultHandler == null) {
            final List<BeanDefinition<RdmaListenerExceptionHandler>> candidates =
                beans.getBeanDefinitions(RdmaListenerExceptionHandler.class).stream()
                    .filter(definition -> !definition.hasStereotype(RdmaListener.class)).toList();
            if (candidates.size() != 1) {
                throw new ConfigurationException("expected one RdmaListenerExceptionHandler bean that is not a "
                    + "listener, found " + candidates.stream().map(BeanDefinition::getBeanType).toList()
                    + " (replace DefaultRdmaListenerExceptionHandler with @Replaces)");
            }
            defaultHandler = beans.getBean(candidates.get(0));
        }
        return defaultHandler;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void process(final BeanDefinition<?> definition, final ExecutableMethod<?, ?> executable) {
        if (definition.hasStereotype(RdmaClient.class) || !definition.hasStereotype(RdmaListener.class)) {
            return; // a client's method, or a mapping on a bean that is no listener
        }
        final ExecutableMethod<Object, Object> method = (ExecutableMethod<Object, Object>) executable;
        final String where = definition.getBeanType().getName() + "." + method.getMethodName();
        final String channel = method.stringValue(RdmaChannel.class)
            .orElseThrow(() -> new ConfigurationException(where + ": @RdmaChannel needs a channel name"));
        final String server = definition.stringValue(RdmaListener.class, "server").orElse("default");

        final List<Argument<?>> bodies = java.util.Arrays.stream(method.getArguments())
            .filter(RdmaArgumentBinders::isBody).toList();
        if (bodies.size() != 1) {
            throw new ConfigurationException(where + " must have exactly one body parameter (the one that is neither "
                + "@MessageHeader nor RdmaStreamInfo); it has " + bodies.size());
        }
        final Argument<?> body = bodies.get(0);
        final boolean takesStream = Publisher.class.isAssignableFrom(body.getType());
        final Class<?> bodyType = takesStream ? elementType(body, where) : body.getWrapperType();
        final Codec<?> bodyCodec = codec(bodyType, where, "body");
        if (bodyCodec.decodesToView()) {
            throw new ConfigurationException(where + ": the codec " + bodyCodec.name() + " of " + bodyType.getName()
                + " decodes to a view of the receive ring; a listener's body needs a codec that copies");
        }

        final Argument<Object> returnType = method.getReturnType().asArgument();
        final boolean reactive = Publisher.class.isAssignableFrom(returnType.getType())
            || CompletionStage.class.isAssignableFrom(returnType.getType());
        final Class<?> answerType;
        if (reactive) {
            answerType = elementType(returnType, where);
        } else if (returnType.isVoid()) {
            answerType = Void.class;
        } else {
            answerType = returnType.getWrapperType();
        }
        final Codec<?> answerCodec = answerType == Void.class ? null
            : codec(answerType, where, "answer");

        final int listenerConcurrency = definition.intValue(RdmaListener.class, "concurrency").orElse(1);
        final int concurrency = positive(method.intValue(RdmaChannel.class, "concurrency").orElse(0) > 0
            ? method.intValue(RdmaChannel.class, "concurrency").getAsInt() : listenerConcurrency, where, "concurrency");
        final int prefetchValue = method.intValue(RdmaChannel.class, "prefetch").orElse(0);
        final int prefetch = prefetchValue > 0 ? prefetchValue : concurrency;

        final Object bean = beans.getBean(definition);
        final RdmaListenerExceptionHandler handler = bean instanceof RdmaListenerExceptionHandler own
            ? own : defaultHandler();
        routes.add(new ListenerRoute(server, channel, bean, method, ListenerRoute.bindings(method, binders),
            takesStream, !reactive, bodyCodec, answerCodec, concurrency, prefetch,
            errorHandling(method, definition, where), handler));
    }

    private static ListenerRoute.ErrorHandling errorHandling(final ExecutableMethod<?, ?> method,
                                                             final BeanDefinition<?> definition, final String where) {
        AnnotationValue<RdmaErrorStrategy> value = method.getAnnotation(RdmaErrorStrategy.class);
        if (value == null) {
            value = definition.getAnnotation(RdmaErrorStrategy.class);
        }
        if (value == null) {
            return new ListenerRoute.ErrorHandling(ErrorStrategy.SKIP, 0, Duration.ZERO, 1);
        }
        final ErrorStrategy strategy = value.enumValue("value", ErrorStrategy.class).orElse(ErrorStrategy.SKIP);
        final int attempts = value.intValue("retryAttempts").orElse(3);
        final String delayText = value.stringValue("retryDelay").orElse("100ms");
        final Duration delay;
        try {
            delay = io.micronaut.core.convert.ConversionService.SHARED.convertRequired(delayText, Duration.class);
        } catch (final RuntimeException ex) {
            throw new ConfigurationException(where + ": @RdmaErrorStrategy(retryDelay = \"" + delayText
                + "\") is not a duration (e.g. 100ms, 2s)", ex);
        }
        final double multiplier = value.doubleValue("multiplier").orElse(2.0);
        if (attempts < 0 || delay.isNegative() || multiplier < 1) {
            throw new ConfigurationException(where + ": @RdmaErrorStrategy needs retryAttempts >= 0, a delay >= 0 and "
                + "multiplier >= 1");
        }
        return new ListenerRoute.ErrorHandling(strategy, attempts, delay, multiplier);
    }

    private static int positive(final int value, final String where, final String what) {
        if (value < 1) {
            throw new ConfigurationException(where + ": " + what + " must be at least 1; it is " + value);
        }
        return value;
    }

    static Class<?> elementType(final Argument<?> argument, final String where) {
        return argument.getFirstTypeVariable().map(Argument::getType)
            .orElseThrow(() -> new ConfigurationException(where + ": " + argument.getTypeString(true)
                + " needs its element type, e.g. Flux<Order>"));
    }

    private Codec<?> codec(final Class<?> type, final String where, final String what) {
        return codecs.find(type).orElseThrow(() -> new ConfigurationException(where + ": no codec for its " + what
            + " type " + type.getName() + "; add one to the application's CodecRegistry bean"));
    }
}

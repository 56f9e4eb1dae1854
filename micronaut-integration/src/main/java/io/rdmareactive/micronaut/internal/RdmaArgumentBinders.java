package io.rdmareactive.micronaut.internal;

import io.micronaut.core.bind.ArgumentBinder;
import io.micronaut.core.bind.ArgumentBinderRegistry;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.type.Argument;
import io.micronaut.messaging.annotation.MessageHeader;
import io.rdmareactive.micronaut.RdmaStreamInfo;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Binds a listener method's parameters from an {@link RdmaMessage}: a parameter of type {@link RdmaStreamInfo} gets
 * the stream's information, a {@code @MessageHeader("name")} parameter the header of that name (converted to the
 * parameter's type), and the body parameter (annotated {@code @MessageBody}, or the one without annotation) the body.
 */
@Singleton
public class RdmaArgumentBinders implements ArgumentBinderRegistry<RdmaMessage> {

    private final ConversionService conversions;

    public RdmaArgumentBinders(final ConversionService conversions) {
        this.conversions = conversions;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> Optional<ArgumentBinder<T, RdmaMessage>> findArgumentBinder(final Argument<T> argument) {
        if (argument.getType() == RdmaStreamInfo.class) {
            return Optional.of((context, message) -> result(Optional.of((T) message.info())));
        }
        if (argument.getAnnotationMetadata().hasAnnotation(MessageHeader.class)) {
            final String name = argument.getAnnotationMetadata().stringValue(MessageHeader.class)
                .filter(value -> !value.isEmpty()).orElse(argument.getName());
            return Optional.of((context, message) -> header(name, context, message));
        }
        return Optional.of((context, message) -> result(Optional.ofNullable((T) message.body())));
    }

    /** @return whether the argument receives the body: neither the stream's information nor a header */
    static boolean isBody(final Argument<?> argument) {
        return argument.getType() != RdmaStreamInfo.class
            && !argument.getAnnotationMetadata().hasAnnotation(MessageHeader.class);
    }

    private <T> ArgumentBinder.BindingResult<T> header(final String name, final ArgumentConversionContext<T> context,
                                                       final RdmaMessage message) {
        final String value = message.info().headers().get(name);
        if (value == null) {
            return result(Optional.empty());
        }
        return result(conversions.convert(value, context));
    }

    private static <T> ArgumentBinder.BindingResult<T> result(final Optional<T> value) {
        return new ArgumentBinder.BindingResult<>() {
            @Override
            public Optional<T> getValue() {
                return value;
            }
        };
    }
}

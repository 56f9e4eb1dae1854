package io.rdmareactive;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class of the API the {@link TestTransport} it runs on, as a parameter (of its constructor): verbs,
 * with the class's scale, when the class itself is {@link OnVerbs} (not a superclass: the shared-memory base class of
 * a verbs class runs on shared memory), shared memory otherwise. Nothing global is set, so classes on different
 * transports may run side by side.
 */
final class TestTransportResolver implements ParameterResolver {

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
        return parameter.getParameter().getType() == TestTransport.class;
    }

    @Override
    public TestTransport resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
        return transportOf(context.getRequiredTestClass());
    }

    /** @return the transport of {@code testClass}: its own {@link OnVerbs}, not one a superclass has */
    static TestTransport transportOf(final Class<?> testClass) {
        final OnVerbs onVerbs = testClass.getAnnotation(OnVerbs.class);
        return onVerbs == null ? TestTransport.SHM : TestTransport.verbs(onVerbs.scale());
    }
}

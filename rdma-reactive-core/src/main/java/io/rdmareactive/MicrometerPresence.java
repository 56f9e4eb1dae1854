package io.rdmareactive;

/**
 * Whether Micrometer, an optional dependency of rdma-reactive-core, is on the class path: asked by
 * {@code metrics(true)} before anything that uses it loads, so that its absence is a clear error at once rather than
 * a {@link NoClassDefFoundError} at connect or bind. Names no Micrometer type itself.
 */
final class MicrometerPresence {

    /** The class whose presence tells. */
    static final String REGISTRY = "io.micrometer.core.instrument.MeterRegistry";

    private MicrometerPresence() {
    }

    /** @throws IllegalStateException if Micrometer is not on the class path of rdma-reactive-core */
    static void require(final String what) {
        require(what, MicrometerPresence.class.getClassLoader());
    }

    /** @throws IllegalStateException if {@code loader} does not find Micrometer */
    static void require(final String what, final ClassLoader loader) {
        try {
            Class.forName(REGISTRY, false, loader);
        } catch (final ClassNotFoundException | LinkageError ex) {
            throw new IllegalStateException(what + " registers Micrometer meters, but Micrometer is not on the class "
                + "path: add the dependency io.micrometer:micrometer-core (rdma-reactive-core declares it optional)", ex);
        }
    }
}

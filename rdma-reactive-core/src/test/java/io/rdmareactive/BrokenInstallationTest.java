package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.fault.BrokenInstallationProvider;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A runtime that cannot open its device because a class is missing ({@link BrokenInstallationProvider} throws
 * {@link NoClassDefFoundError}): {@code connect()} and {@code bind()} end with an error that carries it, where they
 * used to wait forever (Reactor rethrows a {@link LinkageError} rather than signalling it).
 */
class BrokenInstallationTest {

    private static final Duration BOUND = ShmTestSupport.BOUND;

    @Test
    void connectSignalsAMissingClassInsteadOfWaitingForever() {
        assertThatThrownBy(() -> RdmaClient.create().provider(BrokenInstallationProvider.NAME).address("nowhere")
            .connect().block(BOUND))
            .isInstanceOf(RdmaConnectionException.class)
            .hasMessageContaining("RdmaClient.connect() failed: java.lang.NoClassDefFoundError: "
                + "org/example/MissingDependency")
            .hasCauseInstanceOf(NoClassDefFoundError.class);
    }

    @Test
    void bindSignalsAMissingClassInsteadOfWaitingForever() {
        assertThatThrownBy(() -> RdmaServer.create().provider(BrokenInstallationProvider.NAME).address("nowhere")
            .handle((in, out) -> in.receive(io.rdmareactive.codec.Codecs.UTF8_STRING).then()).bind().block(BOUND))
            .isInstanceOf(RdmaConnectionException.class)
            .hasMessageContaining("RdmaServer.bind() failed: java.lang.NoClassDefFoundError: "
                + "org/example/MissingDependency")
            .hasCauseInstanceOf(NoClassDefFoundError.class);
    }
}

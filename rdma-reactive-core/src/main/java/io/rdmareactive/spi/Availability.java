package io.rdmareactive.spi;

import java.util.Objects;

/**
 * Whether a provider can run on this machine, with the reason in words a user can act on.
 *
 * @param available true if {@link RdmaProvider#open(DeviceOptions)} is expected to succeed
 * @param reason    why it is or is not available, never empty
 */
public record Availability(boolean available, String reason) {

    public Availability {
        Objects.requireNonNull(reason, "reason");
        if (reason.isBlank()) {
            throw new IllegalArgumentException("an availability must say why");
        }
    }

    /** @return an availability saying the provider can run, and why */
    public static Availability available(final String reason) {
        return new Availability(true, reason);
    }

    /** @return an availability saying the provider cannot run, and what to do about it */
    public static Availability unavailable(final String reason) {
        return new Availability(false, reason);
    }
}

package dev.cairn.auth;

import java.time.Instant;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The keys a verifier accepts while a key is being replaced: the {@code current} key always, and the
 * {@code previous} one until {@code previousUntil} (the end of the rotation's overlap), after which it is refused.
 * Outside a rotation there is no previous key. Holds master keys (the coordinator's configuration) as well as keys
 * derived from them ({@link #derive}: a job's keys, the requests keys), which share the overlap.
 *
 * @param current the key in force; never {@code null}
 * @param previous the key being replaced; {@code null} outside a rotation
 * @param previousUntil the first instant at which {@code previous} is refused; {@code null} exactly when
 *     {@code previous} is
 */
public record RotatingKeys(SigningKey current, SigningKey previous, Instant previousUntil) {

    public RotatingKeys {
        Objects.requireNonNull(current, "current");
        if ((previous == null) != (previousUntil == null)) {
            throw new IllegalArgumentException("a previous key needs the instant its overlap ends, and only a "
                    + "previous key has one; was previous " + previous + " until " + previousUntil);
        }
        if (previous != null && previous.id().equals(current.id())) {
            throw new IllegalArgumentException("the previous key is the current key (key id " + current.id() + ")");
        }
    }

    /** Only {@code current}: no rotation under way. */
    public static RotatingKeys of(SigningKey current) {
        return new RotatingKeys(current, null, null);
    }

    /** The keys {@code derivation} derives from these (e.g. a job's keys from master keys), with the same overlap. */
    public RotatingKeys derive(UnaryOperator<SigningKey> derivation) {
        return new RotatingKeys(derivation.apply(current), previous == null ? null : derivation.apply(previous),
                previousUntil);
    }

    /** Whether the previous key is still accepted at {@code now}. */
    public boolean inOverlap(Instant now) {
        return previous != null && now.isBefore(previousUntil);
    }

    /**
     * The key to sign with at {@code now} where readers may not all hold the current key yet: the previous one during
     * the overlap (every reader, restarted with the new keys or not yet, accepts it), the current one after it. This
     * is how the REST API signs what it publishes during a rolling restart.
     */
    public SigningKey signingKeyAt(Instant now) {
        return inOverlap(now) ? previous : current;
    }

    @Override
    public String toString() {
        return "key " + current.id() + (previous == null ? "" : ", previous key " + previous.id() + " until "
                + previousUntil);
    }
}

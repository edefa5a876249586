package dev.cairn.sidecar.kafka;

import dev.cairn.auth.SigningKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job's key of a sidecar configured with {@code auth.key.file}, re-read when the file changes, so that an operator
 * hands a running sidecar its new key after a key rotation by writing the file: the next record is signed with it. In:
 * the file, the key read from it at start, a clock and the interval between looks; out: the key to sign the next
 * record with ({@link #get()}).
 *
 * <p>At most once per interval, on the next record signed after it, the file is read (a key file is a few dozen
 * bytes); content that differs from the last seen is parsed. A file that cannot be read, or holds no valid key (being
 * written, truncated, garbage), leaves the key in force unchanged: the sidecar never stops signing nor sends unsigned.
 * Each such problem is logged once as an ERROR naming the file and the key id still in use; a new key is logged once
 * with its id. Write a new key to a temporary file and rename it over the old one, so that no half-written key is
 * ever read.
 */
final class ReloadingKeyFile implements Supplier<SigningKey> {

    /** How often the file is looked at, at most. */
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final long MAX_BYTES = 4096;
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingKeyFile.class);

    private final Path file;
    private final Clock clock;
    private final Duration interval;
    private SigningKey key;
    private byte[] seen;
    private Instant nextCheck;
    private String problem;

    /**
     * @param file the key file
     * @param initial the key read from it at start
     * @param clock when the file is due to be looked at again
     * @param interval how long after a look the next one is due
     */
    ReloadingKeyFile(Path file, SigningKey initial, Clock clock, Duration interval) {
        this.file = file;
        this.key = initial;
        this.clock = clock;
        this.interval = interval;
        this.nextCheck = clock.instant().plus(interval);
    }

    /** The key to sign with now: the file's current key, or the last valid one. */
    @Override
    public synchronized SigningKey get() {
        Instant now = clock.instant();
        if (!now.isBefore(nextCheck)) {
            nextCheck = now.plus(interval);
            look();
        }
        return key;
    }

    private void look() {
        byte[] content;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                fail("holds " + size + " bytes, far more than a key");
                seen = null;
                return;
            }
            content = Files.readAllBytes(file);
        } catch (IOException | RuntimeException e) {
            fail("cannot be read (" + e + ")");
            seen = null;
            return;
        }
        if (Arrays.equals(content, seen)) {
            return;
        }
        seen = content;
        SigningKey next;
        try {
            next = SigningKey.fromBase64(new String(content, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            fail("holds no valid key (" + e.getMessage() + ")");
            return;
        }
        if (!next.id().equals(key.id())) {
            LOG.info("Read a new key from {}: records are signed with key {} from now on (before: key {})", file,
                    next.id(), key.id());
        } else if (problem != null) {
            LOG.info("The key file {} holds a valid key again, key {}", file, next.id());
        }
        key = next;
        problem = null;
    }

    private void fail(String what) {
        if (!what.equals(problem)) {
            LOG.error("The key file {} {}: records are still signed with key {}, read before; write the job's key "
                    + "from `cairn keys job` to it (to a temporary file first, then rename it)", file, what, key.id());
            problem = what;
        }
    }
}

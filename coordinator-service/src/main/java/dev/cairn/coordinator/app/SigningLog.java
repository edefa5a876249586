package dev.cairn.coordinator.app;

import dev.cairn.auth.RotatingKeys;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a starting coordinator says about the signatures it requires: a warning for each input topic it takes unsigned
 * records on, and the ids of the master keys in force (those of a rotation with the end of its overlap), so that an
 * operator can match them with {@code cairn keys} and the records' key id headers.
 */
final class SigningLog {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorApp.class);

    private SigningLog() {
    }

    /** Logs what {@code config} requires, with {@code now} telling whether a rotation's overlap has ended. */
    static void log(CoordinatorConfig config, Instant now) {
        if (config.sidecarMasterKey() == null) {
            LOG.warn("No sidecar master key: records on {} and {} are accepted unsigned, so any client that can write "
                    + "those topics can acknowledge any job's checkpoints and register jobs or take savepoints",
                    config.topics().acks(), config.topics().requests());
            return;
        }
        if (config.allowUnsignedRequests()) {
            LOG.warn("allow.unsigned.requests: unsigned records on {} are accepted, so any client that can write "
                    + "that topic can register jobs or take savepoints (signed ones are still checked)",
                    config.topics().requests());
        }
        RotatingKeys keys = config.masterKeys();
        if (keys.previous() == null) {
            LOG.info("Records must be signed with keys derived from master key {}", keys.current().id());
        } else if (keys.inOverlap(now)) {
            LOG.info("Key rotation: records signed with keys derived from master key {} are accepted, and until {} "
                    + "those of the previous master key {} too; until then the REST API signs with the previous "
                    + "one's requests key", keys.current().id(), keys.previousUntil(), keys.previous().id());
        } else {
            LOG.warn("Key rotation: the overlap of the previous master key {} ended at {}: records signed with its "
                    + "keys are dead-lettered; remove sidecar.previous.master.key.file and "
                    + "sidecar.previous.master.key.until", keys.previous().id(), keys.previousUntil());
        }
    }
}

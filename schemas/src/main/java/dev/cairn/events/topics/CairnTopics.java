package dev.cairn.events.topics;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The names and configuration of Cairn's topics. Every keyed topic is keyed by job id and has the same
 * partition count, so one job's events stay in order and one stream task owns one job's state.
 *
 * <ul>
 *   <li>{@code <prefix>requests}: trigger requests, job specs and status changes from users and tools;</li>
 *   <li>{@code <prefix>acks}: task started, acknowledged and declined, from sidecars;</li>
 *   <li>{@code <prefix>journal}: every event the coordinator accepted or decided, never deleted;</li>
 *   <li>{@code <prefix>control}: trigger, complete and abort notifications for sidecars;</li>
 *   <li>{@code <prefix>completed}: compacted, the retained completed checkpoints per job (key: the job id) and
 *       the state handles of its newest one in parts (key: {@link #restorePartKey}), on the job's partition;</li>
 *   <li>{@code <prefix>snapshots}: compacted, snapshots of each journal partition's fold on the same partition
 *       number (key: {@code manifest} for the newest complete one, {@code snapshot/<journal offset>/<chunk>} for its
 *       parts), from which the coordinator rebuilds its stores without reading the journal's whole history;</li>
 *   <li>{@code <prefix>dlq}: records that could not be read, with the reason in headers;</li>
 *   <li>{@code <prefix>schemas}: compacted, the Avro schemas Cairn's programs write (key: the schema's fingerprint
 *       in 16 lower-case hex digits, value: its parsing canonical form), so that a reader one release older
 *       resolves a newer writer's schema ({@code dev.cairn.events.serde.SchemaCatalog}). Not keyed by job id: a
 *       reader reads all of it.</li>
 * </ul>
 *
 * @param prefix prepended to every name, {@code cairn.} by default
 */
public record CairnTopics(String prefix) {

    /** The default prefix. */
    public static final String DEFAULT_PREFIX = "cairn.";

    public CairnTopics {
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.matches("[a-zA-Z0-9._-]*")) {
            throw new IllegalArgumentException("topic prefix '" + prefix
                    + "' may contain only letters, digits, '.', '_' and '-'");
        }
    }

    /** Topics named with the default prefix {@code cairn.}. */
    public static CairnTopics defaults() {
        return new CairnTopics(DEFAULT_PREFIX);
    }

    public String requests() {
        return prefix + "requests";
    }

    public String acks() {
        return prefix + "acks";
    }

    public String journal() {
        return prefix + "journal";
    }

    public String control() {
        return prefix + "control";
    }

    public String completed() {
        return prefix + "completed";
    }

    /**
     * The subtask index with which an {@code AckDiscarded} on {@link #control()} addresses a coordinator-side
     * participant, named as its task id and attempt id (a participant has neither subtask nor attempt; tasks'
     * subtask indexes are never negative).
     */
    public static final int PARTICIPANT_SUBTASK_INDEX = -1;

    /**
     * The key of a job's restore part on {@link #completed()}: the job id, a NUL character, the part number. Job
     * ids hold no control characters, so it never equals a job id nor another job's part key.
     */
    public static String restorePartKey(String jobId, int part) {
        return jobId + '\u0000' + part;
    }

    /** Whether a key of {@link #completed()} is one of the job's restore parts rather than its retained list. */
    public static boolean isRestorePartOf(String key, String jobId) {
        return key != null && key.length() > jobId.length() && key.startsWith(jobId)
                && key.charAt(jobId.length()) == '\u0000';
    }

    /** Snapshots of the journal partitions' fold (compacted; see the class comment). */
    public String snapshots() {
        return prefix + "snapshots";
    }

    public String dlq() {
        return prefix + "dlq";
    }

    /** The Avro schemas the writers of every release publish (compacted; see the class comment). */
    public String schemas() {
        return prefix + "schemas";
    }

    /**
     * The topics of which {@code name} is the one {@code role} names: {@code of("cairn.journal",
     * CairnTopics::journal)} is the prefix {@code cairn.}. For a client that is handed one topic's name and needs
     * another of the same set (the schemas topic beside the requests or the journal topic).
     *
     * @return empty when {@code name} is not such a topic's name under any valid prefix
     */
    public static Optional<CairnTopics> of(String name, Function<CairnTopics, String> role) {
        String suffix = role.apply(new CairnTopics(""));
        if (name == null || !name.endsWith(suffix)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new CairnTopics(name.substring(0, name.length() - suffix.length())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * How long a segment of the snapshots topic stays open: the brokers compact only closed segments, so snapshots
     * replaced within the hour are cleaned within about the hour, and a rebuild reads about one snapshot per partition.
     */
    public static final long SNAPSHOT_SEGMENT_MS = 3_600_000;
    /** The largest snapshot record: a chunk of about 512 KiB, or one holding a single store value larger than that. */
    public static final int SNAPSHOT_MAX_BYTES = 8 * 1024 * 1024;

    /**
     * The requests topic's timestamps are the brokers' append times, which no writer chooses: the coordinator refuses a
     * request whose own time is too far from it, so that a copied signed request cannot be written again later.
     */
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    /** The value of {@link #MESSAGE_TIMESTAMP_TYPE} the requests topic is created with. */
    public static final String LOG_APPEND_TIME = "LogAppendTime";

    /** Every topic Cairn uses, with the topic-level configuration each needs. */
    public Map<String, Map<String, String>> withConfigs() {
        return Map.of(
                requests(), Map.of(MESSAGE_TIMESTAMP_TYPE, LOG_APPEND_TIME),
                acks(), Map.of(),
                journal(), Map.of("retention.ms", "-1", "retention.bytes", "-1"),
                control(), Map.of(),
                completed(), Map.of("cleanup.policy", "compact"),
                dlq(), Map.of("retention.ms", "-1", "retention.bytes", "-1"),
                schemas(), Map.of("cleanup.policy", "compact"),
                snapshots(), Map.of("cleanup.policy", "compact", "segment.ms", String.valueOf(SNAPSHOT_SEGMENT_MS),
                        "min.cleanable.dirty.ratio", "0.1",
                        "max.message.bytes", String.valueOf(SNAPSHOT_MAX_BYTES)));
    }

    /** Every topic name, in a fixed order. */
    public List<String> all() {
        return List.of(requests(), acks(), journal(), control(), completed(), dlq(), schemas(), snapshots());
    }
}

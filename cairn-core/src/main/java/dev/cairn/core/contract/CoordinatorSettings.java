package dev.cairn.core.contract;


/**
 * Coordinator-wide bounds that are not part of a job's spec. The same settings must be used by the
 * live decider and by an audit replay, since they bound what {@code CheckpointEvolver} keeps.
 *
 * @param maxQueuedRequests capacity of a job's request queue (Flink: 1000)
 * @param historySize ended checkpoints kept per job in the stats history (Flink: 10)
 * @param recentlyEndedSize ended checkpoint ids remembered so that their acks count as late
 *     messages (Flink: 16)
 * @param limits bounds on what clients send (checked by the decider only, so replay does not depend on them)
 * @param requestsKept trigger requests per job whose outcome is kept for status queries, the newest ones (Flink
 *     keeps completed asynchronous operations in a cache for a while; 100 here)
 * @param maxRecordBytes the largest record value the coordinator sends: the records of a new restore point are cut
 *     to fit it (the decider only; replay does not depend on it)
 */
public record CoordinatorSettings(int maxQueuedRequests, int historySize, int recentlyEndedSize, InputLimits limits,
        int requestsKept, int maxRecordBytes) {

    /** How many requests' outcomes a job keeps by default. */
    public static final int DEFAULT_REQUESTS_KEPT = 100;
    /** Below Kafka's default max.message.bytes (1 MiB) and max.request.size, leaving room for key and headers. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 1_000_000;
    /** The smallest record size limit: below it not even one restore part of the longest ids fits. */
    public static final int MIN_RECORD_BYTES = 1024;

    /** Flink's defaults. */
    public static final CoordinatorSettings DEFAULTS = new CoordinatorSettings(1000, 10, 16, InputLimits.DEFAULTS,
            DEFAULT_REQUESTS_KEPT);

    public CoordinatorSettings {
        if (maxQueuedRequests < 1 || historySize < 1 || recentlyEndedSize < 1 || requestsKept < 1) {
            throw new IllegalArgumentException("every bound must be at least 1: " + maxQueuedRequests
                    + ", " + historySize + ", " + recentlyEndedSize + ", " + requestsKept);
        }
        if (maxRecordBytes < MIN_RECORD_BYTES) {
            throw new IllegalArgumentException("the record size limit must be at least " + MIN_RECORD_BYTES
                    + " bytes, was " + maxRecordBytes);
        }
        java.util.Objects.requireNonNull(limits, "limits");
    }

    /** The settings with the default record size limit. */
    public CoordinatorSettings(int maxQueuedRequests, int historySize, int recentlyEndedSize, InputLimits limits,
            int requestsKept) {
        this(maxQueuedRequests, historySize, recentlyEndedSize, limits, requestsKept, DEFAULT_MAX_RECORD_BYTES);
    }

    /** These settings with other limits on what clients send. */
    public CoordinatorSettings withLimits(InputLimits newLimits) {
        return new CoordinatorSettings(maxQueuedRequests, historySize, recentlyEndedSize, newLimits, requestsKept,
                maxRecordBytes);
    }

    /** These settings with another record size limit. */
    public CoordinatorSettings withMaxRecordBytes(int newMaxRecordBytes) {
        return new CoordinatorSettings(maxQueuedRequests, historySize, recentlyEndedSize, limits, requestsKept,
                newMaxRecordBytes);
    }
}

package dev.cairn.coordinator.streams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys of the timers store ({@link CoordinatorStores#TIMERS}): the due time, big-endian with the sign bit flipped
 * so that byte order is time order, then the job id. The state tables' keys are {@code StateKeys}'.
 */
public final class TimerKeys {

    private TimerKeys() {}

    /** (dueAtMs, jobId) of the timers store: ordered by due time. */
    static Bytes timer(long dueAtMs, String jobId) {
        byte[] job = utf8(jobId);
        return Bytes.wrap(ByteBuffer.allocate(8 + job.length).putLong(dueAtMs ^ Long.MIN_VALUE).put(job).array());
    }

    /** The upper bound of a range scan over the timers due by {@code nowMs}: it sorts after every one of them. */
    static Bytes dueBy(long nowMs) {
        return Bytes.wrap(ByteBuffer.allocate(8).putLong((nowMs + 1) ^ Long.MIN_VALUE).array());
    }

    static long timerDueAt(Bytes key) {
        return ByteBuffer.wrap(key.get()).getLong() ^ Long.MIN_VALUE;
    }

    static String timerJob(Bytes key) {
        byte[] bytes = key.get();
        return new String(bytes, 8, bytes.length - 8, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

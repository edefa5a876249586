package dev.cairn.coordinator.streams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * Byte keys of the per-vertex, per-subtask and timer stores, shared by the processor that writes them and the
 * interactive queries that read them. Strings are length-prefixed, so that a key's prefix
 * (a job, or a job and a checkpoint id) is a contiguous range of the store; numbers are big-endian with
 * the sign bit flipped, so that byte order is numeric order.
 */
public final class StoreKeys {

    private StoreKeys() {}

    /** (jobId, taskId) of the vertices store. */
    public static Bytes vertex(String jobId, String taskId) {
        byte[] job = utf8(jobId);
        byte[] task = utf8(taskId);
        return Bytes.wrap(ByteBuffer.allocate(4 + job.length + 4 + task.length)
                .putInt(job.length).put(job).putInt(task.length).put(task).array());
    }

    /** (jobId): the prefix of every key of one job in the vertices, attempts and finished stores. */
    public static Bytes job(String jobId) {
        byte[] job = utf8(jobId);
        return Bytes.wrap(ByteBuffer.allocate(4 + job.length).putInt(job.length).put(job).array());
    }

    /** (jobId, taskId, subtaskIndex) of the attempts and finished stores. */
    public static Bytes attempt(String jobId, String taskId, int subtaskIndex) {
        byte[] job = utf8(jobId);
        byte[] task = utf8(taskId);
        return Bytes.wrap(ByteBuffer.allocate(4 + job.length + 4 + task.length + 4)
                .putInt(job.length).put(job).putInt(task.length).put(task).putInt(subtaskIndex ^ Integer.MIN_VALUE)
                .array());
    }

    /**
     * (jobId, checkpointId): the key of one checkpoint's progress and summary, and the prefix of every ack of
     * that checkpoint.
     */
    public static Bytes checkpoint(String jobId, long checkpointId) {
        byte[] job = utf8(jobId);
        return Bytes.wrap(ByteBuffer.allocate(4 + job.length + 8)
                .putInt(job.length).put(job).putLong(checkpointId ^ Long.MIN_VALUE).array());
    }

    /** (jobId, checkpointId, taskId, subtaskIndex) of the acks store. */
    static Bytes ack(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        byte[] prefix = checkpoint(jobId, checkpointId).get();
        byte[] task = utf8(taskId);
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + 4 + task.length + 4)
                .put(prefix).putInt(task.length).put(task).putInt(subtaskIndex ^ Integer.MIN_VALUE).array());
    }

    /** (jobId, requestId) of the requests store: a job's requests are one contiguous range. */
    public static Bytes request(String jobId, String requestId) {
        return vertex(jobId, requestId);
    }

    /** (dueAtMs, jobId) of the timers store: ordered by due time. */
    static Bytes timer(long dueAtMs, String jobId) {
        byte[] job = utf8(jobId);
        return Bytes.wrap(ByteBuffer.allocate(8 + job.length).putLong(dueAtMs ^ Long.MIN_VALUE).put(job).array());
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

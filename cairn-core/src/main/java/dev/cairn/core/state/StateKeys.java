package dev.cairn.core.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Keys of the {@link StateTable}s, and how each is encoded to the bytes of its store. Strings are length-prefixed,
 * so that a key's prefix (a job, or a job and a checkpoint id) is a contiguous range of the store; numbers are
 * big-endian with the sign bit flipped, so that byte order is numeric order. These encodings are the stores'
 * (and their changelogs') keys: changing one is a change of the store layout.
 */
public final class StateKeys {

    /** A job id, UTF-8 encoded: the key of the tables that hold one value per job. */
    public static final KeyCodec<String> JOB = KeyCodec.of(StateKeys::utf8,
            buffer -> new String(buffer.array(), StandardCharsets.UTF_8));

    /** (jobId, taskId), grouped by job. */
    public static final KeyCodec<VertexKey> VERTEX = KeyCodec.grouped(key -> twoStrings(key.jobId(), key.taskId()),
            buffer -> new VertexKey(string(buffer), string(buffer)), VertexKey::jobId, StateKeys::jobPrefix);

    /** (jobId, taskId, subtaskIndex), grouped by job. */
    public static final KeyCodec<AttemptKey> SUBTASK = KeyCodec.grouped(StateKeys::subtask,
            buffer -> new AttemptKey(string(buffer), string(buffer), buffer.getInt() ^ Integer.MIN_VALUE),
            AttemptKey::jobId, StateKeys::jobPrefix);

    /** (jobId, checkpointId). */
    public static final KeyCodec<CheckpointKey> CHECKPOINT = KeyCodec.of(StateKeys::checkpoint,
            buffer -> new CheckpointKey(string(buffer), buffer.getLong() ^ Long.MIN_VALUE));

    /** (jobId, checkpointId, taskId, subtaskIndex), grouped by checkpoint. */
    public static final KeyCodec<AckKey> ACK = KeyCodec.grouped(StateKeys::ack,
            buffer -> new AckKey(string(buffer), buffer.getLong() ^ Long.MIN_VALUE, string(buffer),
                    buffer.getInt() ^ Integer.MIN_VALUE),
            AckKey::checkpoint, group -> checkpoint((CheckpointKey) group));

    /** (jobId, requestId), grouped by job: encoded as a vertex key is. */
    public static final KeyCodec<RequestKey> REQUEST = KeyCodec.grouped(key -> twoStrings(key.jobId(),
            key.requestId()), buffer -> new RequestKey(string(buffer), string(buffer)), RequestKey::jobId,
            StateKeys::jobPrefix);

    /** (jobId, location) of a shared state object, grouped by job: encoded as a vertex key is. */
    public static final KeyCodec<SharedKey> SHARED = KeyCodec.grouped(key -> twoStrings(key.jobId(),
            key.location()), buffer -> new SharedKey(string(buffer), string(buffer)), SharedKey::jobId,
            StateKeys::jobPrefix);

    private StateKeys() {
    }

    /** (jobId, taskId). */
    public record VertexKey(String jobId, String taskId) {
        @Override
        public int hashCode() {
            return mix(Objects.hashCode(jobId), Objects.hashCode(taskId));
        }
    }

    /** (jobId, taskId, subtaskIndex). */
    public record AttemptKey(String jobId, String taskId, int subtaskIndex) {
        @Override
        public int hashCode() {
            return mix(mix(Objects.hashCode(jobId), Objects.hashCode(taskId)), subtaskIndex);
        }
    }

    /** (jobId, checkpointId): one checkpoint's acks, progress or summary. */
    public record CheckpointKey(String jobId, long checkpointId) {
        @Override
        public int hashCode() {
            return mix(Objects.hashCode(jobId), Long.hashCode(checkpointId));
        }
    }

    /**
     * (jobId, checkpointId, taskId, subtaskIndex): one accepted ack. It holds its checkpoint's key, its group, so
     * that finding an ack's group makes no key.
     */
    public record AckKey(CheckpointKey checkpoint, String taskId, int subtaskIndex) {
        public AckKey(String jobId, long checkpointId, String taskId, int subtaskIndex) {
            this(new CheckpointKey(jobId, checkpointId), taskId, subtaskIndex);
        }

        public String jobId() {
            return checkpoint.jobId();
        }

        public long checkpointId() {
            return checkpoint.checkpointId();
        }

        @Override
        public int hashCode() {
            return mix(mix(Objects.hashCode(checkpoint), Objects.hashCode(taskId)), subtaskIndex);
        }
    }

    /** (jobId, requestId): one trigger request's record. */
    public record RequestKey(String jobId, String requestId) {
        @Override
        public int hashCode() {
            return mix(Objects.hashCode(jobId), Objects.hashCode(requestId));
        }
    }

    /** (jobId, location): one shared state object of the job. */
    public record SharedKey(String jobId, String location) {
        @Override
        public int hashCode() {
            return mix(Objects.hashCode(jobId), Objects.hashCode(location));
        }
    }

    /**
     * Combines the hash of a key's fields so far with the next field's. A record's own hash ({@code 31 * h + next})
     * makes neighbours collide: job {@code "job-2"}'s checkpoint 1 and job {@code "job-1"}'s checkpoint 32, task
     * {@code "t2"}'s subtask 0 and {@code "t1"}'s subtask 31. Multiplying by the golden ratio's odd 32-bit constant
     * moves such neighbours far apart, and a hash map's bins stay short.
     */
    static int mix(int hash, int next) {
        return hash * 0x9E3779B1 + next;
    }

    private static byte[] jobPrefix(Object jobId) {
        byte[] job = utf8((String) jobId);
        return ByteBuffer.allocate(4 + job.length).putInt(job.length).put(job).array();
    }

    private static byte[] subtask(AttemptKey key) {
        byte[] job = utf8(key.jobId());
        byte[] task = utf8(key.taskId());
        return ByteBuffer.allocate(4 + job.length + 4 + task.length + 4).putInt(job.length).put(job)
                .putInt(task.length).put(task).putInt(key.subtaskIndex() ^ Integer.MIN_VALUE).array();
    }

    private static byte[] ack(AckKey key) {
        byte[] job = utf8(key.jobId());
        byte[] task = utf8(key.taskId());
        return ByteBuffer.allocate(4 + job.length + 8 + 4 + task.length + 4).putInt(job.length).put(job)
                .putLong(key.checkpointId() ^ Long.MIN_VALUE).putInt(task.length).put(task)
                .putInt(key.subtaskIndex() ^ Integer.MIN_VALUE).array();
    }

    private static byte[] twoStrings(String first, String second) {
        byte[] one = utf8(first);
        byte[] two = utf8(second);
        return ByteBuffer.allocate(4 + one.length + 4 + two.length).putInt(one.length).put(one).putInt(two.length)
                .put(two).array();
    }

    private static byte[] checkpoint(CheckpointKey key) {
        byte[] job = utf8(key.jobId());
        return ByteBuffer.allocate(4 + job.length + 8).putInt(job.length).put(job)
                .putLong(key.checkpointId() ^ Long.MIN_VALUE).array();
    }

    private static String string(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.getInt()];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

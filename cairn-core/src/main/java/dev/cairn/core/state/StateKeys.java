package dev.cairn.core.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Keys of the {@link StateTable}s, and how each is encoded to the bytes of its store. Strings are length-prefixed,
 * so that a key's prefix (a job, or a job and a checkpoint id) is a contiguous range of the store; numbers are
 * big-endian with the sign bit flipped, so that byte order is numeric order. These encodings are the stores'
 * (and their changelogs') keys: changing one is a change of the store layout.
 */
public final class StateKeys {

    /** A job id, UTF-8 encoded: the key of the tables that hold one value per job. */
    public static final KeyCodec<String> JOB = new KeyCodec<>() {
        @Override
        public byte[] encode(String jobId) {
            return utf8(jobId);
        }

        @Override
        public String decode(byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    };

    /** (jobId, taskId), grouped by job. */
    public static final KeyCodec<VertexKey> VERTEX = new JobGrouped<>() {
        @Override
        public byte[] encode(VertexKey key) {
            return twoStrings(key.jobId(), key.taskId());
        }

        @Override
        public VertexKey decode(byte[] bytes) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            return new VertexKey(string(buffer), string(buffer));
        }

        @Override
        public Object group(VertexKey key) {
            return key.jobId();
        }
    };

    /** (jobId, taskId, subtaskIndex), grouped by job. */
    public static final KeyCodec<AttemptKey> SUBTASK = new JobGrouped<>() {
        @Override
        public byte[] encode(AttemptKey key) {
            byte[] job = utf8(key.jobId());
            byte[] task = utf8(key.taskId());
            return ByteBuffer.allocate(4 + job.length + 4 + task.length + 4).putInt(job.length).put(job)
                    .putInt(task.length).put(task).putInt(key.subtaskIndex() ^ Integer.MIN_VALUE).array();
        }

        @Override
        public AttemptKey decode(byte[] bytes) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            return new AttemptKey(string(buffer), string(buffer), buffer.getInt() ^ Integer.MIN_VALUE);
        }

        @Override
        public Object group(AttemptKey key) {
            return key.jobId();
        }
    };

    /** (jobId, checkpointId). */
    public static final KeyCodec<CheckpointKey> CHECKPOINT = new KeyCodec<>() {
        @Override
        public byte[] encode(CheckpointKey key) {
            return checkpoint(key);
        }

        @Override
        public CheckpointKey decode(byte[] bytes) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            return new CheckpointKey(string(buffer), buffer.getLong() ^ Long.MIN_VALUE);
        }
    };

    /** (jobId, checkpointId, taskId, subtaskIndex), grouped by checkpoint. */
    public static final KeyCodec<AckKey> ACK = new KeyCodec<>() {
        @Override
        public byte[] encode(AckKey key) {
            byte[] job = utf8(key.jobId());
            byte[] task = utf8(key.taskId());
            return ByteBuffer.allocate(4 + job.length + 8 + 4 + task.length + 4).putInt(job.length).put(job)
                    .putLong(key.checkpointId() ^ Long.MIN_VALUE).putInt(task.length).put(task)
                    .putInt(key.subtaskIndex() ^ Integer.MIN_VALUE).array();
        }

        @Override
        public AckKey decode(byte[] bytes) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            return new AckKey(string(buffer), buffer.getLong() ^ Long.MIN_VALUE, string(buffer),
                    buffer.getInt() ^ Integer.MIN_VALUE);
        }

        @Override
        public boolean grouped() {
            return true;
        }

        @Override
        public Object group(AckKey key) {
            return key.checkpoint();
        }

        @Override
        public byte[] encodeGroup(Object group) {
            return checkpoint((CheckpointKey) group);
        }
    };

    /** (jobId, requestId), grouped by job: encoded as a vertex key is. */
    public static final KeyCodec<RequestKey> REQUEST = new JobGrouped<>() {
        @Override
        public byte[] encode(RequestKey key) {
            return twoStrings(key.jobId(), key.requestId());
        }

        @Override
        public RequestKey decode(byte[] bytes) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            return new RequestKey(string(buffer), string(buffer));
        }

        @Override
        public Object group(RequestKey key) {
            return key.jobId();
        }
    };

    private StateKeys() {
    }

    /** (jobId, taskId). */
    public record VertexKey(String jobId, String taskId) {
    }

    /** (jobId, taskId, subtaskIndex). */
    public record AttemptKey(String jobId, String taskId, int subtaskIndex) {
    }

    /** (jobId, checkpointId): one checkpoint's acks, progress or summary. */
    public record CheckpointKey(String jobId, long checkpointId) {
    }

    /** (jobId, checkpointId, taskId, subtaskIndex): one accepted ack. */
    public record AckKey(String jobId, long checkpointId, String taskId, int subtaskIndex) {
        CheckpointKey checkpoint() {
            return new CheckpointKey(jobId, checkpointId);
        }

        /** Whether this ack is of {@code checkpoint} (without making its key). */
        boolean isOf(CheckpointKey checkpoint) {
            return checkpointId == checkpoint.checkpointId() && jobId.equals(checkpoint.jobId());
        }
    }

    /** (jobId, requestId): one trigger request's record. */
    public record RequestKey(String jobId, String requestId) {
    }

    /** Keys whose group is their job id, encoded as their own length-prefixed first part. */
    private abstract static class JobGrouped<K> implements KeyCodec<K> {
        @Override
        public boolean grouped() {
            return true;
        }

        @Override
        public byte[] encodeGroup(Object jobId) {
            byte[] job = utf8((String) jobId);
            return ByteBuffer.allocate(4 + job.length).putInt(job.length).put(job).array();
        }
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

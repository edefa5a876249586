package dev.cairn.coordinator.it;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SigningKey;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.serde.CairnSerdes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Makes malformed records the way a broken or hostile client would, from a seed (so a failure can be
 * replayed): random bytes, truncated records, a wrong magic byte, an unknown schema fingerprint, another
 * topic's event, trailing bytes, unsigned, foreign-signed and bit-flipped sidecar records and requests, huge values,
 * null and mismatched keys, and well-formed specs whose values are out of bounds. Requests are signed with the
 * requests key unless the kind says otherwise, so that what follows the signature check is fuzzed too. Each record
 * says whether the coordinator must dead-letter it or journal a rejection.
 */
final class RecordFuzzer {

    /** One fuzzed record and what the coordinator must do with it. */
    record Fuzzed(ProducerRecord<byte[], byte[]> record, String kind, boolean deadLetter) {}

    private static final int HUGE_BYTES = 900 * 1024;

    private final Random random;
    private final String requestsTopic;
    private final String acksTopic;
    private final SigningKey master;

    RecordFuzzer(long seed, String requestsTopic, String acksTopic, SigningKey master) {
        this.random = new Random(seed);
        this.requestsTopic = requestsTopic;
        this.acksTopic = acksTopic;
        this.master = master;
    }

    /** The {@code i}-th record: kinds in turn, each with random content; every 997th is huge. */
    Fuzzed next(int i) {
        String job = "fuzz-" + i;
        if (i % 997 == 996) {
            return dead(acksTopic, job, bytes(HUGE_BYTES), "huge");
        }
        return switch (i % 15) {
            case 0 -> dead(acksTopic, job, bytes(random.nextInt(200)), "random bytes");
            case 1 -> truncated(job);
            case 2 -> dead(acksTopic, job, flipByte(ack(job), 0), "wrong magic");
            case 3 -> dead(acksTopic, job, flipByte(ack(job), 2 + random.nextInt(8)), "unknown fingerprint");
            case 4 -> signed(job, requestBytes(spec(job, 1, 1000)), "wrong type");
            case 5 -> trailing(job);
            case 6 -> dead(acksTopic, job, ack(job), "unsigned");
            case 7 -> signedWith(master.jobKey("another-job"), job, ack(job), "signed by another job's key");
            case 8 -> bitFlipped(job);
            case 9 -> request(null, requestBytes(spec(job, 1, 1000)), "null key", true);
            case 10 -> request(key("not-" + job), requestBytes(spec(job, 1, 1000)), "mismatched key", true);
            case 11 -> badRequest(job);
            case 12 -> rejected(job, spec(job, Integer.MAX_VALUE, 1000), "parallelism Integer.MAX_VALUE");
            case 13 -> rejected(job, spec(job, 1, -1 - random.nextInt(1000)), "negative interval");
            default -> rejected(job, spec(job, 1 + random.nextInt(40_000), Long.MAX_VALUE), "overflowing interval");
        };
    }

    private Fuzzed truncated(String job) {
        byte[] whole = ack(job);
        return dead(acksTopic, job, Arrays.copyOf(whole, 1 + random.nextInt(whole.length - 1)), "truncated");
    }

    private Fuzzed trailing(String job) {
        byte[] whole = ack(job);
        return signed(job, Arrays.copyOf(whole, whole.length + 1 + random.nextInt(64)), "trailing bytes");
    }

    private Fuzzed bitFlipped(String job) {
        byte[] value = ack(job);
        RecordHeaders headers = new RecordHeaders();
        RecordSignatures.sign(headers, master.jobKey(job), value);
        int bit = random.nextInt(value.length * 8);
        value[bit / 8] ^= (byte) (1 << (bit % 8));
        return new Fuzzed(new ProducerRecord<>(acksTopic, null, key(job), value, headers), "bit flip", true);
    }

    /** Random bytes signed, a valid request unsigned, or a signed one with a bit flipped. */
    private Fuzzed badRequest(String job) {
        return switch (random.nextInt(3)) {
            case 0 -> request(key(job), bytes(1 + random.nextInt(300)), "random request bytes", true);
            case 1 -> dead(requestsTopic, job, requestBytes(spec(job, 1, 1000)), "unsigned request");
            default -> {
                byte[] value = requestBytes(spec(job, 1, 1000));
                RecordHeaders headers = new RecordHeaders();
                RecordSignatures.sign(headers, master.requestsKey(), value);
                int bit = random.nextInt(value.length * 8);
                value[bit / 8] ^= (byte) (1 << (bit % 8));
                yield new Fuzzed(new ProducerRecord<>(requestsTopic, null, key(job), value, headers),
                        "bit-flipped request", true);
            }
        };
    }

    /** A request signed with the requests key. */
    private Fuzzed request(byte[] key, byte[] value, String kind, boolean deadLetter) {
        RecordHeaders headers = new RecordHeaders();
        RecordSignatures.sign(headers, master.requestsKey(), value);
        return new Fuzzed(new ProducerRecord<>(requestsTopic, null, key, value, headers), kind, deadLetter);
    }

    private Fuzzed dead(String topic, String key, byte[] value, String kind) {
        return new Fuzzed(new ProducerRecord<>(topic, key(key), value), kind, true);
    }

    private Fuzzed signed(String job, byte[] value, String kind) {
        return signedWith(master.jobKey(job), job, value, kind);
    }

    private Fuzzed signedWith(SigningKey key, String job, byte[] value, String kind) {
        RecordHeaders headers = new RecordHeaders();
        RecordSignatures.sign(headers, key, value);
        return new Fuzzed(new ProducerRecord<>(acksTopic, null, key(job), value, headers), kind, true);
    }

    private Fuzzed rejected(String job, JobSpec spec, String kind) {
        return request(key(job), requestBytes(spec), kind, false);
    }

    private byte[] ack(String job) {
        CheckpointAcknowledged ack = Events.ack(job, 1, "source", 0, "a-" + random.nextInt())
                .setStateHandle(Events.state("file:///s/" + job, 10)).setMetrics(SubtaskMetrics.newBuilder().build())
                .setTimestampMs(1).build();
        return random.nextBoolean() ? CairnSerdes.acks().serialize(acksTopic, new AckEnvelope(ack))
                : CairnSerdes.acks().serialize(acksTopic, new AckEnvelope(
                        Events.taskStarted(job, "source", 0, "a").setTimestampMs(1).build()));
    }

    private byte[] requestBytes(JobSpec spec) {
        return CairnSerdes.requests().serialize(requestsTopic, new RequestEnvelope(spec));
    }

    private static JobSpec spec(String job, int parallelism, long intervalMs) {
        return Events.jobSpec(job).setTasks(List.of(Events.task("source", parallelism)))
                .setConfig(Events.config(intervalMs, 10_000).setStorageBaseLocation("file:///cp").build())
                .setTimestampMs(1).build();
    }

    private byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] flipByte(byte[] value, int index) {
        value[index] ^= (byte) 0xFF;
        return value;
    }

    private static byte[] key(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}

package dev.cairn.core.decide;

import dev.cairn.coordinator.state.AdmittedRequest;
import dev.cairn.coordinator.state.AdmittedRequests;
import dev.cairn.core.events.BoundedText;
import dev.cairn.core.events.Command;
import dev.cairn.core.events.EventFields;
import dev.cairn.core.events.EventKind;
import dev.cairn.core.evolve.AdmissionRecorder;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.RequestAdmitted;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Whether a request of {@code cairn.requests} is taken at all, before anything is decided on it: the defence against
 * a signed request copied and written again by someone who holds no key. A request is refused (a
 * {@code CommandRejected} saying why, nothing else) when
 * <ul>
 *   <li>it is <b>stale</b>: its own time ({@code timestampMs}, which its signature covers) is further than the
 *       freshness window ({@code InputLimits.requestFreshnessMs}) from when the broker appended it (the
 *       record timestamp of a topic with {@code message.timestamp.type=LogAppendTime}, which no writer chooses): a
 *       request written again later than the window after it was made; or</li>
 *   <li>it was <b>seen</b>: a request under its key was admitted within the last two windows of requester time (the
 *       key: its request id, or the SHA-256 of its bytes for the kinds without one, a job spec and a status change),
 *       which a replay within the window, and a retry of the same request id, are; or</li>
 *   <li>the job has {@value #MAX_ADMITTED} requests admitted in the last two windows already (the keys kept are
 *       bounded; only a holder of the requests key can send that many).</li>
 * </ul>
 * Otherwise it is admitted: a {@code RequestAdmitted} records its key, times and window, and its
 * {@link AdmissionRecorder evolve} keeps the key for two windows. Requests for a job that does not exist are checked
 * but not recorded, unless they register or remove one: they change nothing, and nothing would bound their keys.
 */
final class RequestAdmission {

    /** The most keys a job keeps: a request beyond them within two windows is refused. */
    static final int MAX_ADMITTED = 1_000;
    /** Bytes of the SHA-256 a key keeps: 128 bits. */
    private static final int DIGEST_BYTES = 16;

    private RequestAdmission() {
    }

    /** Admits the request or refuses it; {@code false}: refused, and nothing more is decided on it. */
    static boolean admit(Decision d, Command.Delivered delivered) {
        Command.Input request = delivered.request();
        String jobId = request.jobId();
        SpecificRecord event = request.event();
        long requestedAt = requestedAtMs(event);
        long window = d.settings.limits().requestFreshnessMs();
        Long appendedAt = delivered.appendedAtMs() == Command.Delivered.UNKNOWN_TIME ? null : delivered.appendedAtMs();
        Optional<String> refusal = stale(requestedAt, appendedAt, window);
        String key = keyOf(event);
        Optional<AdmittedRequests> admitted = d.state.get(StateTable.ADMISSIONS, jobId);
        if (refusal.isEmpty()) {
            refusal = seen(admitted, key, requestedAt);
        }
        if (refusal.isEmpty()) {
            refusal = full(admitted, requestedAt, window);
        }
        if (refusal.isPresent()) {
            d.reject(jobId, request, refusal.get());
            return false;
        }
        EventKind kind = request.kind();
        if (d.state.job(jobId).isPresent() || admitted.isPresent() || kind == EventKind.JOB_SPEC
                || kind == EventKind.REMOVE_JOB) {
            d.emit(RequestAdmitted.newBuilder().setJobId(jobId).setRequestType(EventFields.type(event))
                    .setRequestKey(key).setRequestedAtMs(requestedAt).setAppendedAtMs(appendedAt)
                    .setWindowMs(window).setTimestampMs(d.now).build());
        }
        return true;
    }

    private static Optional<String> stale(long requestedAt, Long appendedAt, long window) {
        if (appendedAt == null || Math.abs(appendedAt - requestedAt) <= window) {
            return Optional.empty();
        }
        return Optional.of("stale request: made at " + requestedAt + " (its timestampMs) but appended to the requests "
                + "topic at " + appendedAt + ", " + Math.abs(appendedAt - requestedAt) + " ms apart, more than the "
                + "freshness window of " + window + " ms: a request written again after it was made (a replay), or "
                + "the requester's clock is off; send it anew");
    }

    private static Optional<String> seen(Optional<AdmittedRequests> admitted, String key, long requestedAt) {
        if (admitted.isEmpty()) {
            return Optional.empty();
        }
        for (AdmittedRequest earlier : admitted.get().getRequests()) {
            if (earlier.getRequestKey().equals(key)) {
                return Optional.of("request " + key + " (made at " + requestedAt + ") was taken before, made at "
                        + earlier.getRequestedAtMs() + ": a replay, or a retry of a request already taken; nothing "
                        + "done");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> full(Optional<AdmittedRequests> admitted, long requestedAt, long window) {
        if (admitted.isEmpty()) {
            return Optional.empty();
        }
        List<AdmittedRequest> kept = AdmissionRecorder.kept(admitted.get(), requestedAt, window);
        if (kept.size() < MAX_ADMITTED) {
            return Optional.empty();
        }
        return Optional.of("the job took " + kept.size() + " requests within the last " + 2 * window + " ms, as many "
                + "as a job keeps the keys of to refuse replays; send it again later");
    }

    /** The requester's time of a request: its {@code timestampMs}. */
    static long requestedAtMs(SpecificRecord event) {
        Schema.Field field = event.getSchema().getField("timestampMs");
        return (Long) event.get(field.pos());
    }

    /**
     * What identifies a request: {@code id:} and its request id, or {@code sha256:} and the hex of the first
     * {@value #DIGEST_BYTES} bytes of the SHA-256 of its Avro binary encoding (kinds without a request id, or a blank
     * one, which the request's own checks refuse afterwards).
     */
    static String keyOf(SpecificRecord event) {
        Schema.Field field = event.getSchema().getField("requestId");
        Object id = field == null ? null : event.get(field.pos());
        if (id != null && !id.toString().isBlank()) {
            return "id:" + id;
        }
        return "sha256:" + BoundedText.sha256(encode(event)).substring(0, 2 * DIGEST_BYTES);
    }

    private static byte[] encode(SpecificRecord event) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
        try {
            new SpecificDatumWriter<SpecificRecord>(event.getSchema()).write(event, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + EventFields.type(event), e);
        }
        return bytes.toByteArray();
    }
}

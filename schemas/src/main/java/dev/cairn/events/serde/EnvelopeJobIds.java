package dev.cairn.events.serde;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The job an envelope's event belongs to: what signing and verifying a record look the job's key up by. Every
 * event of every topic's union names its job in a string field {@value #FIELD} (a schema test holds every union
 * to that), so the job id is read from the event's own schema: an event kind added to a union is signed and
 * verified like the others without a change here.
 */
public final class EnvelopeJobIds {

    /** The field every event names its job in. */
    public static final String FIELD = "jobId";

    /** Where each event class keeps its job id: the field's position, or -1 when it has none. */
    private static final ClassValue<Integer> POSITION = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            if (!SpecificRecord.class.isAssignableFrom(type)) {
                return -1;
            }
            Schema.Field field = org.apache.avro.specific.SpecificData.get().getSchema(type).getField(FIELD);
            return field == null || field.schema().getType() != Schema.Type.STRING ? -1 : field.pos();
        }
    };

    private EnvelopeJobIds() {
    }

    /** The job id of the event inside a record of {@code cairn.acks}. */
    public static String of(AckEnvelope envelope) {
        return ofEvent(envelope.getEvent());
    }

    /** The job id of the request inside a record of {@code cairn.requests}. */
    public static String of(RequestEnvelope envelope) {
        return ofEvent(envelope.getEvent());
    }

    /**
     * The job id of an event of any topic's union.
     *
     * @throws IllegalArgumentException for an object that is no event with a job id
     */
    public static String ofEvent(Object event) {
        int position = event == null ? -1 : POSITION.get(event.getClass());
        if (position < 0 || !(((SpecificRecord) event).get(position) instanceof CharSequence jobId)) {
            throw new IllegalArgumentException("not an event that names its job: "
                    + (event == null ? "null" : event.getClass().getName()));
        }
        return jobId.toString();
    }
}

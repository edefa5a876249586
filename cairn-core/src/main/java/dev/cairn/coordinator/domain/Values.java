package dev.cairn.coordinator.domain;

import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Shallow copies of Avro records, to the same type or, field by name, to another. The domain treats records as immutable values, so a copy may
 * share its field values; and unlike {@code newBuilder(other)} (a deep copy that resolves classes
 * by name through Avro's class security validator) it needs no trusted-package configuration.
 */
final class Values {

    private Values() {
    }

    /** A new record with the same field values; set fields on it before publishing it. */
    static <T extends SpecificRecordBase> T copy(T record, Supplier<T> empty) {
        T copy = empty.get();
        for (Schema.Field field : record.getSchema().getFields()) {
            copy.put(field.pos(), record.get(field.pos()));
        }
        return copy;
    }

    /**
     * A new record of another type with the fields both types name (with the same types) taken from {@code from};
     * set the others on it before publishing it.
     */
    static <T extends SpecificRecordBase> T convert(SpecificRecordBase from, Supplier<T> empty) {
        T to = empty.get();
        Schema source = from.getSchema();
        for (Schema.Field field : to.getSchema().getFields()) {
            Schema.Field same = source.getField(field.name());
            if (same != null) {
                to.put(field.pos(), from.get(same.pos()));
            }
        }
        return to;
    }
}

package org.jhpvm.mpi.pvm;

import java.util.HashMap;
import java.util.Map;

/**
 * The message buffers of a PVM task ({@link Pvm}'s part that packs and unpacks): the active send and receive
 * buffers, {@code pk*} and {@code upk*}, {@code bufinfo}, and PVM's constants. Local: nothing here communicates.
 */
abstract class PvmMessages {
    // ---------------------------------------------------------------------------------------------- constants
    /** Encoding: XDR in PVM; here the same bytes as raw (one byte order on every host). */
    public static final int PvmDataDefault = 0;
    /** Encoding: no conversion. */
    public static final int PvmDataRaw = 1;
    /** Encoding: data left in place until the send reads it. */
    public static final int PvmDataInPlace = 2;
    /** Success. */
    public static final int PvmOk = 0;
    /** A bad argument. */
    public static final int PvmBadParam = -2;
    /** Unpacking past the end of a message. */
    public static final int PvmNoData = -5;
    /** No active buffer. */
    public static final int PvmNoBuf = -15;
    /** No such buffer. */
    public static final int PvmNoSuchBuf = -16;
    /** The task was not spawned by another. */
    public static final int PvmNoParent = -23;
    /** Not implemented. */
    public static final int PvmNotImpl = -24;
    /** The task has called exit. */
    public static final int PvmSysErr = -14;
    /** The tid of rank 0; a task's tid is this plus its rank. */
    public static final int TID_BASE = 0x40000;
    /** The data types of {@code Pvm.psend} (pvm3.h values): byte. */
    public static final int PVM_BYTE = 1;
    /** Short. */
    public static final int PVM_SHORT = 2;
    /** Int. */
    public static final int PVM_INT = 3;
    /** Float. */
    public static final int PVM_FLOAT = 4;
    /** Double. */
    public static final int PVM_DOUBLE = 6;
    /** Long. */
    public static final int PVM_LONG = 8;

    final Map<Integer, PvmBuffer> buffers = new HashMap<>();
    private int nextBufid = 1;
    int sbuf;
    int rbuf;

    PvmMessages() {
    }

    /** Whether the task has left PVM ({@code pvm_exit}). */
    abstract boolean exited();

    int newBuffer(final PvmBuffer b) {
        final int id = nextBufid++;
        buffers.put(id, b);
        return id;
    }

    /**
     * {@code pvm_initsend}: a new, empty active send buffer (the previous one is freed).
     *
     * @param encoding {@link #PvmDataDefault}, {@link #PvmDataRaw} or {@link #PvmDataInPlace}
     * @return its buffer id, or {@link #PvmBadParam}
     */
    public int initsend(final int encoding) {
        if (encoding < PvmDataDefault || encoding > PvmDataInPlace) {
            return PvmBadParam;
        }
        if (exited()) {
            return PvmSysErr;
        }
        buffers.remove(sbuf);
        sbuf = newBuffer(new PvmBuffer(encoding));
        return sbuf;
    }

    /**
     * {@code pvm_freebuf}.
     *
     * @param bufid a buffer id
     * @return {@link #PvmOk} or {@link #PvmNoSuchBuf}
     */
    public int freebuf(final int bufid) {
        if (buffers.remove(bufid) == null) {
            return PvmNoSuchBuf;
        }
        if (bufid == sbuf) {
            sbuf = 0;
        }
        if (bufid == rbuf) {
            rbuf = 0;
        }
        return PvmOk;
    }

    /**
     * {@code pvm_getsbuf}.
     *
     * @return the active send buffer's id, 0 if none
     */
    public int getsbuf() {
        return sbuf;
    }

    /**
     * {@code pvm_getrbuf}.
     *
     * @return the active receive buffer's id, 0 if none
     */
    public int getrbuf() {
        return rbuf;
    }

    private int pack(final Object array, final int length, final int nitem, final int stride) {
        final PvmBuffer b = buffers.get(sbuf);
        if (b == null) {
            return PvmNoBuf;
        }
        if (nitem < 0 || stride < 1 || (nitem > 0 && (long) (nitem - 1) * stride >= length)) {
            return PvmBadParam;
        }
        b.pack(array, nitem, stride);
        return PvmOk;
    }

    /**
     * {@code pvm_pkbyte}: packs {@code nitem} items, every {@code stride}-th from element 0.
     *
     * @param a      the items
     * @param nitem  how many
     * @param stride the step between them (at least 1)
     * @return {@link #PvmOk}, {@link #PvmNoBuf} or {@link #PvmBadParam}
     */
    public int pkbyte(final byte[] a, final int nitem, final int stride) {
        return pack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_pkshort}.
     *
     * @param a      the items
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #pkbyte}
     */
    public int pkshort(final short[] a, final int nitem, final int stride) {
        return pack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_pkint}.
     *
     * @param a      the items
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #pkbyte}
     */
    public int pkint(final int[] a, final int nitem, final int stride) {
        return pack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_pklong}.
     *
     * @param a      the items
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #pkbyte}
     */
    public int pklong(final long[] a, final int nitem, final int stride) {
        return pack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_pkfloat}.
     *
     * @param a      the items
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #pkbyte}
     */
    public int pkfloat(final float[] a, final int nitem, final int stride) {
        return pack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_pkdouble}.
     *
     * @param a      the items
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #pkbyte}
     */
    public int pkdouble(final double[] a, final int nitem, final int stride) {
        return pack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_pkstr}.
     *
     * @param s the string
     * @return {@link #PvmOk}, {@link #PvmNoBuf} or {@link #PvmBadParam} (null)
     */
    public int pkstr(final String s) {
        final PvmBuffer b = buffers.get(sbuf);
        if (b == null) {
            return PvmNoBuf;
        }
        if (s == null) {
            return PvmBadParam;
        }
        b.packString(s);
        return PvmOk;
    }

    /**
     * {@code pvm_bufinfo}: a received (or probed) message's length in bytes, tag and sender.
     *
     * @param bufid the buffer
     * @param out   gets bytes, msgtag and tid in its first three entries
     * @return {@link #PvmOk}, {@link #PvmNoSuchBuf} or {@link #PvmBadParam}
     */
    public int bufinfo(final int bufid, final int[] out) {
        final PvmBuffer b = buffers.get(bufid);
        if (b == null) {
            return PvmNoSuchBuf;
        }
        if (out == null || out.length < 3) {
            return PvmBadParam;
        }
        out[0] = b.length;
        out[1] = b.tag;
        out[2] = b.tid;
        return PvmOk;
    }

    private int unpack(final Object array, final int length, final int nitem, final int stride) {
        final PvmBuffer b = buffers.get(rbuf);
        if (b == null) {
            return PvmNoBuf;
        }
        if (nitem < 0 || stride < 1 || (nitem > 0 && (long) (nitem - 1) * stride >= length)) {
            return PvmBadParam;
        }
        return b.unpack(array, nitem, stride) ? PvmOk : PvmNoData;
    }

    /**
     * {@code pvm_upkbyte}: unpacks {@code nitem} items from the active receive buffer into every
     * {@code stride}-th element from 0.
     *
     * @param a      where they go
     * @param nitem  how many
     * @param stride the step between them
     * @return {@link #PvmOk}, {@link #PvmNoData} (too few left: nothing read), {@link #PvmNoBuf} or
     *         {@link #PvmBadParam}
     */
    public int upkbyte(final byte[] a, final int nitem, final int stride) {
        return unpack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_upkshort}.
     *
     * @param a      where they go
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #upkbyte}
     */
    public int upkshort(final short[] a, final int nitem, final int stride) {
        return unpack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_upkint}.
     *
     * @param a      where they go
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #upkbyte}
     */
    public int upkint(final int[] a, final int nitem, final int stride) {
        return unpack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_upklong}.
     *
     * @param a      where they go
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #upkbyte}
     */
    public int upklong(final long[] a, final int nitem, final int stride) {
        return unpack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_upkfloat}.
     *
     * @param a      where they go
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #upkbyte}
     */
    public int upkfloat(final float[] a, final int nitem, final int stride) {
        return unpack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_upkdouble}.
     *
     * @param a      where they go
     * @param nitem  how many
     * @param stride the step between them
     * @return as {@link #upkbyte}
     */
    public int upkdouble(final double[] a, final int nitem, final int stride) {
        return unpack(a, a.length, nitem, stride);
    }

    /**
     * {@code pvm_upkstr}.
     *
     * @return the next string of the active receive buffer, or null if there is none (nothing read)
     */
    public String upkstr() {
        final PvmBuffer b = buffers.get(rbuf);
        return b == null ? null : b.unpackString();
    }

}

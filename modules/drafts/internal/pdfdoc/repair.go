package pdfdoc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

func init() { api.DisableConfigDir() } // pdfcpu must never write a config into $HOME

// Repairable reports whether a file the fast reader refused may still be
// read after Repair: damage (a broken cross-reference table, a missing
// trailer, offsets that point nowhere, a page tree it cannot find), a
// header it does not take (PDF 2.0, bytes before %PDF-), encryption it
// cannot open, or pages written with filters it lacks. Structures refused
// as hostile, and files that need a password, are not worth a second try.
func Repairable(err error) bool {
	var h hostile
	switch {
	case err == nil, errors.As(err, &h), errors.Is(err, ErrNeedsPassword), errors.Is(err, ErrTooSlow), errors.Is(err, ErrTooLarge):
		return false
	}
	return errors.Is(err, ErrMalformed) || errors.Is(err, ErrUnsupported) || errors.Is(err, ErrNoPages)
}

// Repair rewrites a PDF the way pdfcpu reads it, as the fast reader can
// take it: the cross-reference table rebuilt by scanning the file for
// objects when its own is missing or wrong (as pdf.js and pdfcpu do), an
// empty user password tried on RC4 and AES encryption and the encryption
// removed, every stream whose filters the fast reader lacks decoded
// (ASCIIHex, LZW, RunLength, Flate with predictors; image-only filters are
// left alone, images are never read), and a PDF 1.7 header. pdfcpu holds
// the whole file in memory, which is why this runs only when the fast
// path fails, and only in the reader's child process.
func Repair(ctx context.Context, src io.Reader, size int64, dst io.Writer, lim Limits) error {
	file, err := io.ReadAll(io.LimitReader(src, size))
	if err != nil {
		return err
	}
	var out bytes.Buffer
	first := rewrite(ctx, file, &out, lim)
	if first == nil {
		_, err := out.WriteTo(dst)
		return err
	}
	if !Repairable(first) {
		return first
	}
	// pdfcpu trusts a table that is there but wrong, and needs a trailer:
	// rebuild both by scanning, then try again.
	rebuilt, err := rebuildXref(file)
	if err != nil {
		return first
	}
	out.Reset()
	switch err := rewrite(ctx, rebuilt, &out, lim); {
	case err == nil:
		_, err := out.WriteTo(dst)
		return err
	case !Repairable(err):
		return err
	}
	// Even then pdfcpu cannot write it out (pages lost to a truncation):
	// the rebuilt file is the repair, and the fast reader reads what is left.
	_, err = dst.Write(rebuilt)
	return err
}

// rewrite is one pass of pdfcpu over file, written to dst.
func rewrite(ctx context.Context, file []byte, dst io.Writer, lim Limits) error {
	size := int64(len(file))
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.Cmd = model.VALIDATE
	if lim.MaxStreamBytes > 0 {
		conf.Limits.MaxDecodeBytes = lim.MaxStreamBytes
	}
	pc, err := read(ctx, bytes.NewReader(file), conf)
	if err != nil {
		return err
	}
	if pc.Size != nil && int64(*pc.Size) > maxObjects(size) {
		// Writing the table out would list every number up to the highest.
		return refused("its objects are numbered up to %d, more than a file of %s can hold", *pc.Size, HumanSize(size))
	}
	pc.Encrypt, pc.EncKey, pc.E = nil, nil, nil
	pc.WriteObjectStream, pc.WriteXRefStream = false, false
	v := model.V17
	pc.HeaderVersion, pc.RootVersion = &v, nil
	var decoded int64
	for _, e := range pc.Table {
		if e == nil || e.Object == nil {
			continue
		}
		sd, ok := e.Object.(types.StreamDict)
		if !ok || !needsDecoding(sd) {
			continue
		}
		if err := sd.DecodeWithLimit(conf.Limits.MaxDecodeBytes); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%w: %v", ErrTooSlow, ctx.Err())
			}
			continue // an undecodable stream stays as it is; its page may still read
		}
		if decoded += int64(len(sd.Content)); lim.MaxDocumentBytes > 0 && decoded > lim.MaxDocumentBytes {
			return fmt.Errorf("%w: its streams inflate to more than %s in all (drafts.max_document_bytes)",
				ErrTooLarge, HumanSize(lim.MaxDocumentBytes))
		}
		sd.Raw, sd.FilterPipeline = sd.Content, nil
		sd.Delete("Filter")
		sd.Delete("DecodeParms")
		n := int64(len(sd.Raw))
		sd.StreamLength = &n
		sd.Update("Length", types.Integer(n))
		e.Object = sd
	}
	if err := write(pc, dst); err != nil {
		return fmt.Errorf("%w: it could not be repaired: %v", ErrMalformed, err)
	}
	return nil
}

// write runs pdfcpu's writer, which panics on some damage too.
func write(pc *model.Context, dst io.Writer) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return api.WriteContext(pc, dst)
}

// read runs pdfcpu's reader, which panics on some damage, under ctx.
func read(ctx context.Context, src io.ReadSeeker, conf *model.Configuration) (pc *model.Context, err error) {
	defer func() {
		if p := recover(); p != nil {
			pc, err = nil, fmt.Errorf("%w: it could not be repaired: %v", ErrMalformed, p)
		}
	}()
	pc, err = pdfcpu.ReadWithContext(ctx, src, conf)
	switch {
	case err == nil:
		return pc, nil
	case errors.Is(err, pdfcpu.ErrWrongPassword):
		return nil, ErrNeedsPassword
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%w: %v", ErrTooSlow, ctx.Err())
	}
	return nil, fmt.Errorf("%w: it could not be repaired: %v", ErrMalformed, err)
}

// needsDecoding: a stream the fast reader cannot decode (any filter but
// FlateDecode and ASCII85Decode, or decode parameters), unless it is an
// image or carries an image-only filter.
func needsDecoding(sd types.StreamDict) bool {
	if st := sd.Subtype(); st != nil && *st == "Image" || len(sd.FilterPipeline) == 0 {
		return false
	}
	needs := false
	for _, f := range sd.FilterPipeline {
		switch f.Name {
		case "DCTDecode", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "Crypt":
			return false
		case "FlateDecode", "ASCII85Decode":
			needs = needs || f.DecodeParms != nil && len(f.DecodeParms) > 0
		default:
			needs = true
		}
	}
	return needs
}

package opt

import "testing"

func TestOpt(t *testing.T) {
	if got := NonNil[string](nil); got == nil || len(got) != 0 {
		t.Fatalf("NonNil(nil) = %#v", got)
	}
	if got := NonNil([]int{1}); len(got) != 1 {
		t.Fatalf("NonNil kept %v", got)
	}
	if NilIfZero("") != nil || *NilIfZero("x") != "x" || NilIfZero(0) != nil {
		t.Fatal("NilIfZero")
	}
	s := "y"
	if Deref[string](nil) != "" || Deref(&s) != "y" {
		t.Fatal("Deref")
	}
}

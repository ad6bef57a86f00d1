// This file holds the inspector's error helpers; the codes and the typed
// error are errcode's, shared by every layer.

package inspect

import (
	"fmt"

	"github.com/dapscope/dapscope/errcode"
)

func errorf(code errcode.Code, hint, format string, args ...any) *errcode.Error {
	return &errcode.Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

const expressionHint = "use a name or a path of attributes and subscripts with int or string literals, " +
	"e.g. df, self.cache, data['train'], arr[0], obj.items[-1]"

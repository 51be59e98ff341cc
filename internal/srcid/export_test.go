package srcid

// DecodeTree decodes a generated sum, so a test can give it a damaged one.
var DecodeTree = decodeTree
